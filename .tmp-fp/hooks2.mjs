import { builtinModules } from 'node:module';
const B = new Set(builtinModules);
const seen = new Set();
export async function resolve(spec, ctx, next) { const s = spec.replace(/^node:/, ''); if (B.has(s.split('/')[0]) && !seen.has(s)) { seen.add(s); process.stderr.write(`ESM ${s} <- ${ctx.parentURL}\n`); } return next(spec, ctx); }
