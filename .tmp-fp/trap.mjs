for (const name of ['fetch','FormData','Headers','Request','Response','WebSocket','EventSource','MessageEvent']) {
  const d = Object.getOwnPropertyDescriptor(globalThis, name); if (!d) continue;
  let warned = false;
  Object.defineProperty(globalThis, name, { configurable: true, enumerable: d.enumerable, get() { if (!warned) { warned = true; console.log('TOUCH', name, new Error().stack.split('\n').slice(2,6).join(' | ')); } return d.get ? d.get.call(globalThis) : d.value; }, set: d.set });
}
