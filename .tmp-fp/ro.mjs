import { readFileSync } from 'node:fs';
export function ro(label) {
  const lines = readFileSync('/proc/self/smaps', 'utf8').split('\n'); let cur = ''; const out = {};
  for (const l of lines) { const m = /^([0-9a-f]+)-[0-9a-f]+ (\S+) (\S+) \S+ \S+\s*(.*)$/.exec(l); if (m) { cur = m[4] === '/usr/bin/node' ? m[2] : ''; continue; } if (cur && l.startsWith('Rss:')) out[cur] = (out[cur] ?? 0) + Number(l.split(/\s+/)[1]); }
  console.log(label.padEnd(20), Object.entries(out).map(([k, v]) => `${k} ${(v / 1024).toFixed(1)}`).join('  '), 'rss', (process.memoryUsage().rss/1048576).toFixed(1));
}
