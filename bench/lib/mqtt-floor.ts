/**
 * The floor of `bench/mqtt.ts`: a bare MQTT.js subscriber taking the same messages the service
 * takes (QoS 1, a shared subscription in a persistent session), acknowledging each as MQTT.js does
 * by itself, and doing nothing else. A message whose value is a slice's end marker is answered on
 * `<prefix>/floor/done`. Run as its own process, as the service is: `node --import tsx bench/lib/mqtt-floor.ts URL PREFIX END_MARKER`.
 */
import { connectAsync } from 'mqtt';

const [url, prefix, marker] = process.argv.slice(2);
/** Values from this one on end a slice. */
const END_MARKER = Number(marker);
const client = await connectAsync(url, {
  protocolVersion: 5,
  clientId: `${prefix}-floor`,
  clean: false,
  properties: { sessionExpiryInterval: 300 },
  reconnectPeriod: 0,
});
let received = 0;
client.on('message', (_topic, payload) => {
  received += 1;
  const value = Number(payload.toString());
  if (value >= END_MARKER) client.publish(`${prefix}/floor/done`, JSON.stringify({ value, received }), { qos: 1 });
});
await client.subscribeAsync(`$share/floor/${prefix}/sensors/+/measurements`, { qos: 1 });
console.log(JSON.stringify({ ready: true }));
process.on('SIGTERM', () => {
  void client.endAsync().then(() => process.exit(0));
});
