import { openSync, readSync } from 'node:fs';
const fd = openSync('/proc/self/pagemap', 'r');
export function icu(label) {
  const a = Math.floor(0x330a4c0 / 4096), b = Math.ceil((0x330a4c0 + 0x1f92d30) / 4096);
  const buf = Buffer.alloc((b - a) * 8); readSync(fd, buf, 0, buf.length, a * 8);
  let n = 0; for (let i = 0; i < buf.length; i += 8) if (buf[i + 7] & 0x80) n++;
  console.log(label.padEnd(24), 'icu', (n * 4 / 1024).toFixed(1), 'MB');
}
