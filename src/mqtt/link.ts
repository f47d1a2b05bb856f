import { connect, type IClientOptions, type IPublishPacket, type MqttClient } from 'mqtt';
import { orderedAcks, type OrderedAcks } from './acks.js';
import { type Backoff, BROKER_BACKOFF, backoffDelay } from './backoff.js';
import type { MqttSettings } from '../config/mqtt.js';
import type { Logger } from '../core/logger.js';
import type { LinkState } from './sharing.js';

export { LINK_STATES, type LinkState } from './sharing.js';

/** A week: what a device publishes while the service is down that long still waits for it. */
export const SESSION_EXPIRY_SECONDS = 7 * 24 * 3600;

/**
 * QoS 1 messages the broker may send a connection before it has acknowledged them (MQTT 5's
 * receive maximum), to bound what one connection has in hand waiting for commits. Over all the
 * connections that is hundreds of messages per commit, which is where the group commit stops
 * gaining; more would only hold more memory (and more to deliver again after a crash). Mosquitto
 * 2.0 keeps to it strictly only while nothing is acknowledged: under a steady stream a connection
 * was seen holding up to 70.
 */
export const RECEIVE_MAXIMUM = 20;

/**
 * Answered to MQTT.js's acknowledgement callback for a message whose acknowledgement the link
 * sends itself, later: an error is MQTT.js's only answer that sends nothing and hands over the
 * next message at once. It reports it as an `error` event, which the link knows to ignore.
 */
const HELD = new Error('acknowledgement held until the message is committed');

export interface LinkDeps {
  settings: Pick<MqttSettings, 'url' | 'username' | 'password' | 'clientId'>;
  log: Logger;
  /**
   * Handles one received message; the broker is told it was received (PUBACK) only once this
   * resolves, so what it does must be committed by then. A rejection leaves it unacknowledged
   * (the link is closing): the broker delivers it again in this session's next connection.
   */
  receive(topic: string, payload: Buffer, packet: IPublishPacket): Promise<void>;
  /** Every (re)connection: subscribe, then publish what subscribers should know. */
  connected(session: { resumed: boolean; reconnect: boolean }): void;
  reconnected?(): void;
  backoff?: Backoff;
  random?: () => number;
}

/**
 * One MQTT 5 connection to the broker in a persistent session (clean start off, a session
 * expiry), reconnecting with backoff for as long as the service runs. Received QoS 1 messages are
 * acknowledged by the link, each once `receive` resolves, in the order the messages came. Up to
 * `RECEIVE_MAXIMUM` of them are handled side by side, so their commits can share one group
 * commit; MQTT.js by itself would hand over a message only once the one before is acknowledged.
 */
export function brokerLink(deps: LinkDeps) {
  const { settings, log, backoff = BROKER_BACKOFF, random = Math.random } = deps;
  let state: LinkState = 'connecting';
  let failures = 0;
  let everConnected = false;
  let closing = false;
  /** The messages being handled, so a close can let them finish and a redelivery can wait for them. */
  const handling = new Set<Promise<unknown>>();
  /** The acknowledgements of the current connection (a new connection starts a new line). */
  let acks: { stream: MqttClient['stream']; line: OrderedAcks } | undefined;

  function acksOfThisConnection(): OrderedAcks {
    const stream = client.stream;
    if (acks?.stream !== stream) {
      const line = orderedAcks((bytes) => {
        // An acknowledgement never goes on another connection than its message's.
        if (client.stream !== stream || !client.connected || stream.destroyed) return false;
        stream.write(bytes);
        return true;
      });
      acks = { stream, line };
    }
    return acks.line;
  }

  function track(work: Promise<unknown>): void {
    handling.add(work);
    void work.finally(() => handling.delete(work));
  }

  const options: IClientOptions = {
    protocolVersion: 5,
    clientId: settings.clientId,
    clean: false,
    properties: { sessionExpiryInterval: SESSION_EXPIRY_SECONDS, receiveMaximum: RECEIVE_MAXIMUM },
    username: settings.username,
    password: settings.password,
    reconnectPeriod: backoff.minMs,
    // A broker that refuses the connection for a while (overloaded, restarting) is tried again too.
    reconnectOnConnackError: true,
    connectTimeout: 10_000,
    keepalive: 30,
    // Subscriptions are made at every connection (see `connected`), whether the session was kept or not.
    resubscribe: false,
    // While the link is down nothing is queued: publications are state, sent afresh on reconnection.
    queueQoSZero: false,
    // MQTT.js's debug log gathers its arguments at a dozen calls per message even when off.
    log: () => {},
    customHandleAcks: (topic, payload, packet: IPublishPacket, ack) => {
      const line = acksOfThisConnection();
      const pending = line.received(packet.messageId as number);
      // A redelivery may be of a message still being committed from the previous connection:
      // handled once every earlier message is, so that one is found stored.
      const earlier = packet.dup && handling.size > 0 ? Promise.allSettled(handling) : undefined;
      const handled = earlier ? earlier.then(() => deps.receive(topic, payload, packet)) : deps.receive(topic, payload, packet);
      track(
        handled.then(
          () => line.settle(pending, true),
          // Closing: not acknowledged, so delivered again next time.
          () => line.settle(pending, false),
        ),
      );
      ack(HELD);
    },
  };
  const client: MqttClient = connect(settings.url, options);

  client.on('message', (topic, payload, packet) => {
    // QoS 1 messages arrive through customHandleAcks; a QoS 0 one (nothing to acknowledge) comes only here.
    if (packet.qos === 0) track(deps.receive(topic, payload, packet).catch(() => undefined));
  });
  client.on('connect', (connack) => {
    state = 'connected';
    failures = 0;
    client.options.reconnectPeriod = backoff.minMs;
    const reconnect = everConnected;
    everConnected = true;
    log.info({ broker: settings.url, clientId: settings.clientId, sessionPresent: connack.sessionPresent }, 'MQTT connected');
    if (reconnect) deps.reconnected?.();
    deps.connected({ resumed: connack.sessionPresent, reconnect });
  });
  client.on('reconnect', () => {
    state = 'connecting';
    failures += 1;
    // Read by MQTT.js when it schedules the next attempt, should this one fail.
    client.options.reconnectPeriod = backoffDelay(backoff, failures, random());
  });
  client.on('close', () => {
    if (state === 'connected' && !closing) log.warn({ broker: settings.url }, 'MQTT link lost; reconnecting');
    state = 'disconnected';
  });
  client.on('error', (error) => {
    if (error === HELD) return;
    // While the broker stays away the same failure repeats at every attempt: told at the first
    // attempts, then every tenth.
    if (!closing && (failures <= 2 || failures % 10 === 0))
      log.warn({ err: error, broker: settings.url, attempts: failures }, 'MQTT link error');
  });

  return {
    state: (): LinkState => state,
    connected: () => client.connected,

    /** Publishes when the link is up; otherwise nothing is sent (and false is answered). */
    publish(topic: string, payload: string, qos: 0 | 1, retain: boolean): boolean {
      if (!client.connected || closing) return false;
      client.publish(topic, payload, { qos, retain }, (error) => {
        if (error && !closing) log.warn({ err: error, topic }, 'MQTT publish failed');
      });
      return true;
    },

    /**
     * Subscribes for QoS 1 without the retained messages (`rh: 2`: a retained message would be
     * replayed, and stored again, at every start), keeping the retain flag of what arrives (`rap`)
     * so the ingest can tell a retained publication and refuse it too.
     */
    async subscribe(filters: string[]): Promise<void> {
      await client.subscribeAsync(filters, { qos: 1, rh: 2, rap: true });
    },

    /**
     * Lets the messages in hand finish (their commits and acknowledgements), then disconnects:
     * the session stays on the broker, which keeps what arrives meanwhile for the next start.
     */
    async close(): Promise<void> {
      closing = true;
      client.options.reconnectPeriod = 0;
      await Promise.race([Promise.allSettled(handling), new Promise((resolve) => setTimeout(resolve, 5000).unref())]);
      acks?.line.flush();
      await new Promise<void>((resolve) => {
        const timer = setTimeout(() => client.end(true, {}, () => resolve()), 2000).unref();
        client.end(false, {}, () => {
          clearTimeout(timer);
          resolve();
        });
      });
    },
  };
}

export type BrokerLink = ReturnType<typeof brokerLink>;
