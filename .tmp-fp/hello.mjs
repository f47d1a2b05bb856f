import Fastify from 'fastify';
const extra = (process.env.EXTRA || '').split(',').filter(Boolean);
for (const m of extra) await import(m);
const app = Fastify({ logger: { level: 'warn' } });
app.get('/healthz', async () => ({ status: 'ok' }));
await app.listen({ port: 18086, host: '127.0.0.1' });
