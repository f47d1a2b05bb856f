const before = new Set(process.moduleLoadList);
await import('/work/main/dist/config/index.js');
const a = new Set(process.moduleLoadList);
await import('/work/main/dist/store/index.js');
const b = new Set(process.moduleLoadList);
await import('/work/main/dist/app.js');
const c = process.moduleLoadList;
console.log('config/store:', [...b].filter(x => !before.has(x)).join(' '));
console.log('app:', c.filter(x => !b.has(x)).join(' '));
