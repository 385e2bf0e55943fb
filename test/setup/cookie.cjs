// `cookie` for Jest. light-my-request (route-backed tools, Fastify's inject) requires `cookie` 2, an
// ES module: Node loads it with require(esm), Jest cannot before Node 24.9. Jest gets the CommonJS
// `cookie` 0.7 the rest of the tree uses, with the one function light-my-request calls (only for
// its `cookies` option, which mcp42 never passes).
/* global require, module */
'use strict';
// eslint-disable-next-line @typescript-eslint/no-require-imports -- a CommonJS file, for Jest's CommonJS loader
const legacy = require('../../node_modules/cookie/index.js');

module.exports = {
  ...legacy,
  stringifySetCookie: ({ name, value }) => legacy.serialize(name, value),
};
