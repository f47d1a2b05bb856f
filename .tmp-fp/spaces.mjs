import v8 from 'node:v8';
const f = (x) => (x/1048576).toFixed(1);
export function spaces(label) { gc(); gc(); const m = process.memoryUsage(); console.log(`== ${label} rss ${f(m.rss)} heapUsed ${f(m.heapUsed)}`); for (const s of v8.getHeapSpaceStatistics()) console.log(`  ${s.space_name.padEnd(28)} size ${f(s.space_size)} used ${f(s.space_used_size)}`); const c = v8.getHeapCodeStatistics(); console.log(`  code+meta ${f(c.code_and_metadata_size)} bytecode ${f(c.bytecode_and_metadata_size)} extscript ${f(c.external_script_source_size)}`); }
