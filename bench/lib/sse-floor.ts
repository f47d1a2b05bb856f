/**
 * The floor of the fan-out benchmark: a plain node:http server that keeps event streams open and,
 * on each POST, writes one fixed-shape event to every stream and answers — no store, no parsing,
 * no filters. The delivery latency it reaches is what this machine and client allow.
 */
import { createServer, type ServerResponse } from 'node:http';

const streams = new Set<ServerResponse>();
let seq = 0;
const server = createServer((req, res) => {
  if (req.method === 'GET') {
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    res.write('retry: 3000\n\n');
    streams.add(res);
    res.once('close', () => streams.delete(res));
    return;
  }
  let body = '';
  req.setEncoding('utf8');
  req.on('data', (chunk: string) => (body += chunk));
  req.on('end', () => {
    const { value } = JSON.parse(body) as { value: number };
    const text = `id: ${++seq}\nevent: measurements\ndata: [{"measurement_id":${seq},"sensor_id":1,"value":${value},"timestamp":"${new Date().toISOString()}"}]\n\n`;
    for (const stream of streams) stream.write(text);
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end('{}');
  });
});
server.maxConnections = 100_000;
server.listen(0, '127.0.0.1', () => {
  const address = server.address();
  console.log(JSON.stringify({ port: typeof address === 'object' && address ? address.port : 0 }));
});
