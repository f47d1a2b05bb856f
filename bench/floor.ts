/**
 * The floor: a plain node:http server that reads the request body and answers a fixed small JSON
 * body. What the service does on top of this is what the benchmark compares.
 */
import { createServer } from 'node:http';

const body = Buffer.from('{"status":"ok"}');
const server = createServer((req, res) => {
  req.on('data', () => {});
  req.on('end', () => {
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': body.length });
    res.end(body);
  });
});
server.listen(0, '127.0.0.1', () => {
  const address = server.address();
  console.log(JSON.stringify({ msg: 'floor ready', port: typeof address === 'object' && address ? address.port : 0 }));
});
process.on('SIGTERM', () => process.exit(0));
