// The Fastify project: the end-to-end specs again, their apps on Fastify (see TEST_ADAPTER in
// test/utils/start-app.ts), so that every behaviour is shown identical on both platforms.
process.env.MCP_TEST_ADAPTER = 'fastify';
