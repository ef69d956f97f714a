import { strict as assert } from "node:assert";
import { AcpHarness, serverEnv } from "./acp-harness.js";

/** Servers started by one test on one HERMES_HOME; `closeAll` ends them and checks every message they sent. */
export class ServerPool {
  private readonly started: AcpHarness[] = [];

  async start(home: string): Promise<AcpHarness> {
    const harness = AcpHarness.spawn(serverEnv(home));
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
