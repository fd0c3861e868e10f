// Where the e2e servers listen (scripts/e2e-server.mjs reads the same variables).
export const PORTAL_PORT = Number(process.env.E2E_PORTAL_PORT ?? 3100);
export const OFFERS_PORT = Number(process.env.E2E_OFFERS_PORT ?? 4100);
export const PORTAL_URL = `http://127.0.0.1:${PORTAL_PORT}`;
export const OFFERS_URL = `http://127.0.0.1:${OFFERS_PORT}`;
