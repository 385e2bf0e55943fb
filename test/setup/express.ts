// The default project: every spec, its apps on Express (see TEST_ADAPTER in test/utils/start-app.ts).
process.env.MCP_TEST_ADAPTER = 'express';
