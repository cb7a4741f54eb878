// Playwright runs the built app (../dist) served by the real perch-server
// (the debug build that `cargo test --workspace` already made) on a fresh
// database with the demo data, in Debian's Chromium. Nothing here downloads a browser.
import { defineConfig } from '@playwright/test';

const port = Number(process.env.PERCH_E2E_PORT ?? 8091);
// The test server's database, one folder per port: a second run beside
// this one (PERCH_E2E_PORT) never wipes this one's (tests/helpers.ts).
const dbDir = `.tmp/db-${port}`;
const server = process.env.PERCH_SERVER_BIN ?? '../target/debug/perch-server';
// The app to test: the release build in ../dist unless told (another build,
// to see a new test fail on the code before its fix).
const dist = process.env.PERCH_E2E_DIST ?? '../dist';
// PERCH_E2E_CPU=4 runs every page on a CPU that many times slower (fixtures.ts):
// a test that passes only on a quick machine is a race. Timeouts grow with it.
const cpu = Math.max(1, Number(process.env.PERCH_E2E_CPU ?? 1));
// PERCH_E2E_BUSY=N burners share the machine's cores with everything else.
const busy = Math.max(0, Number(process.env.PERCH_E2E_BUSY ?? 0));
const slower = Math.max(1, cpu / 2) * (1 + busy / 2);
// The app hosted on another origin (hosting.spec.ts), calling the API here.
const hostPort = port + 1;
const host = `http://127.0.0.1:${hostPort}`;

export default defineConfig({
  testDir: './tests',
  // PERCH_E2E_BUSY=N keeps N CPU-burning processes running for the whole
  // run (busy.ts): a busy machine, where the races between tabs live.
  globalSetup: './busy.ts',
  timeout: 30_000 * slower,
  expect: { timeout: 10_000 * slower },
  fullyParallel: false,
  workers: 1,
  retries: 0,
  forbidOnly: !!process.env.CI,
  reporter: [['list']],
  outputDir: '.tmp/test-results',
  use: {
    baseURL: `http://127.0.0.1:${port}`,
    trace: 'retain-on-failure',
    // The service worker would answer some requests itself, out of reach of
    // page.route; offline.spec.ts allows it for the tests that are about it.
    serviceWorkers: 'block',
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: [
        '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
        '--disable-background-networking', '--disable-component-update', '--disable-sync',
        '--disable-dev-shm-usage',
      ],
    },
  },
  webServer: [
    {
      command: `rm -rf ${dbDir} && mkdir -p ${dbDir} && exec ${server} serve --demo --db ${dbDir}/e2e.db --request-log ${dbDir}/requests.log --addr 127.0.0.1:${port} --static ${dist} --public-url ${host} --allow-origin ${host}`,
      url: `http://127.0.0.1:${port}/api/v1/ping`,
      reuseExistingServer: false,
      timeout: 60_000,
      stdout: 'pipe',
    },
    {
      command: `exec node static-host.mjs`,
      env: { PERCH_HOST_PORT: String(hostPort), PERCH_API_ORIGIN: `http://127.0.0.1:${port}`, PERCH_SERVER_BIN: server },
      url: `${host}/index.html`,
      reuseExistingServer: false,
      timeout: 30_000,
    },
  ],
});
