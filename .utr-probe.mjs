import utr from 'uri-template-router';
const t = (i) => `bench://templates/t${String(i).padStart(4, '0')}/{id}`;
for (const tpl of ['bench://x/{id}', t(5), 'file:///{+path}', 'users://{id}{?fields}']) {
  const s = performance.now(); for (let i = 0; i < 50; i++) new utr.Route(tpl); console.log(tpl, ((performance.now() - s) / 50).toFixed(3), 'ms/Route');
}
let s = performance.now(); const r = new utr.Router(); for (let i = 0; i < 1000; i++) r.addTemplate(t(i), {}, i);
console.log('Router.addTemplate x1000', (performance.now() - s).toFixed(0), 'ms');
s = performance.now(); let m; for (let i = 0; i < 1000; i++) m = r.resolveURI('bench://templates/t0999/42');
console.log('Router.resolveURI', ((performance.now() - s)).toFixed(3), 'µs', JSON.stringify(m?.params), m?.matchValue);
