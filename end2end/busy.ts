// PERCH_E2E_BUSY=N: a busy machine for the whole Playwright run. N processes
// each burn one CPU beside the server, the browser and its other processes,
// so timers, IndexedDB, Web Storage's propagation between tabs and the
// server all slow down together (PERCH_E2E_CPU slows only the page's own
// script). Each burner also ends by itself when this runner is gone, so a
// killed run leaves nothing spinning. Returned as the run's teardown.
import { spawn, type ChildProcess } from 'node:child_process';

export const BUSY = Math.max(0, Math.floor(Number(process.env.PERCH_E2E_BUSY ?? 0)));

export default async function busyMachine(): Promise<() => Promise<void>> {
  const burners: ChildProcess[] = [];
  for (let i = 0; i < BUSY; i++) {
    // Spins, and checks about every 100 ms that the runner is still there.
    const burn = `const p=${process.pid};for(;;){const e=Date.now()+100;while(Date.now()<e){}try{process.kill(p,0)}catch{process.exit(0)}}`;
    burners.push(spawn(process.execPath, ['-e', burn], { stdio: 'ignore' }));
  }
  if (BUSY > 0) console.log(`PERCH_E2E_BUSY=${BUSY}: ${BUSY} CPU-burning processes run beside the tests`);
  return async () => {
    for (const b of burners) b.kill('SIGKILL');
  };
}
