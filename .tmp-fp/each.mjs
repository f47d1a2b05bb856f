const f = (x) => (x/1048576).toFixed(1);
const mods = process.argv.slice(2);
await import('fastify');
gc(); gc(); let m0 = process.memoryUsage();
for (const m of mods) { await import(m); }
gc(); gc(); const m1 = process.memoryUsage();
console.log(mods.join(',').padEnd(40), 'heap +', f(m1.heapUsed - m0.heapUsed), 'rss +', f(m1.rss - m0.rss));
