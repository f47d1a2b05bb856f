import { icu } from './icu.mjs';
icu('start');
for (const m of ['fastify','kysely','@sinclair/typebox','better-sqlite3','jose','prom-client','ajv','ajv-formats','@fastify/swagger','@fastify/static','@fastify/multipart','@node-rs/argon2']) { await import(m); icu(m); }
const { loadConfig, storeOptions } = await import('/work/main/dist/config/index.js'); icu('config');
const { openStore } = await import('/work/main/dist/store/index.js'); icu('store mod');
const { buildApp } = await import('/work/main/dist/app.js'); icu('app mod');
process.env.DATABASE_URL='sqlite:/tmp/fp/b.db';
const config = loadConfig(); icu('loadConfig');
const store = await openStore(config.databaseUrl, storeOptions(config)); icu('store open');
const app = await buildApp(config, store, { logger: false }); icu('buildApp');
await app.ready(); icu('ready');
await app.listen({port: 18081, host:'127.0.0.1'}); icu('listen');
await new Promise(r => setTimeout(r, 3000)); icu('3s');
await app.close(); await store.close(); process.exit(0);
