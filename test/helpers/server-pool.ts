import { strict as assert } from "node:assert";
import { AcpHarness, serverEnv } from "./acp-harness.js";

/** Servers started by one test on one HERMES_HOME; `closeAll` ends them and checks every message they sent. */
export class ServerPool {
  private readonly started: AcpHarness[] = [];

  /** `extraEnv`: DISCARDED_HOME_ENV for the last server on `home`, whose exit fold nothing reads. */
  async start(home: string, extraEnv: Record<string, string> = {}): Promise<AcpHarness> {
    const harness = AcpHarness.spawn(serverEnv(home, extraEnv));
    this.started.push(harness);
    await harness.initialize();
    return harness;
  }

  async closeAll(): Promise<void> {
    for (const h of this.started.splice(0)) {
      if (h.child.exitCode === null && h.child.signalCode === null) await h.close();
      assert.deepEqual(h.violations, []);
    }
  }
}
