const f = (x) => (x/1048576).toFixed(1);
const t0 = performance.now();
function mark(label) { gc(); gc(); const m = process.memoryUsage(); console.log(`${label.padEnd(22)} rss ${f(m.rss)} heapUsed ${f(m.heapUsed)} heapTotal ${f(m.heapTotal)} ext ${f(m.external)} t ${(performance.now()-t0).toFixed(0)}ms`); }
mark('start');
await import('fastify'); mark('fastify');
const { loadConfig, storeOptions } = await import('/work/main/dist/config/index.js'); mark('config');
const { openStore } = await import('/work/main/dist/store/index.js'); mark('store mod');
const { buildApp } = await import('/work/main/dist/app.js'); mark('app mod');
process.env.DATABASE_URL='sqlite:/tmp/fp/b.db';
const config = loadConfig();
const store = await openStore(config.databaseUrl, storeOptions(config)); mark('store open');
const app = await buildApp(config, store, { logger: false }); mark('buildApp');
await app.ready(); mark('ready');
await app.listen({port: 18081, host:'127.0.0.1'}); mark('listen');
await new Promise(r => setTimeout(r, 5000)); mark('after 5s');
await fetch('http://127.0.0.1:18081/healthz'); mark('healthz');
await app.close(); await store.close(); process.exit(0);
