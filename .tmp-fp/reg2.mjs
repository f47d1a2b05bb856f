import { register, builtinModules } from 'node:module'; import Module from 'node:module';
register('./hooks2.mjs', import.meta.url);
const B = new Set(builtinModules); const seen = new Set(); const orig = Module._load;
Module._load = function (req, parent, isMain) { const s = req.replace(/^node:/, ''); if (B.has(s.split('/')[0]) && !seen.has(s)) { seen.add(s); process.stderr.write(`CJS ${s} <- ${parent?.filename}\n`); } return orig.apply(this, arguments); };
