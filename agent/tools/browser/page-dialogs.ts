import type { Dialog } from "playwright-core";

/*
 * The page's JavaScript dialogs (alert, confirm, prompt, beforeunload), held open for the model to answer with
 * browser_dialog as upstream's supervisor holds them (its default policy, must_respond). Playwright keeps the page's
 * script stopped, and the action that opened the dialog unfinished, until the dialog is answered; so that nothing
 * waits for the model forever:
 * - the browser tools stop waiting for their action once a dialog opens, and report it (browser-tool-support.ts);
 * - a dialog not answered within upstream's 300 s (DEFAULT_DIALOG_TIMEOUT_S) is dismissed, as its watchdog does;
 * - browser_navigate dismisses a pending dialog before leaving (the model moved on), and while it loads the next page
 *   accepts the beforeunload that leaving asks (the model asked to leave) and dismisses any other dialog, as all
 *   were before: held, they would make the navigation wait for an answer the model cannot give until it returns.
 * Each dialog closed by anything but the model is logged in the console list, as every dialog was before.
 */

/** Upstream's DEFAULT_DIALOG_TIMEOUT_S. */
export const DIALOG_TIMEOUT_MS = 300_000;

/** What the model is shown of a pending dialog (upstream's PendingDialog.to_dict, without the CDP frame id). */
export interface DialogInfo {
  readonly id: string;
  readonly type: string;
  readonly message: string;
  readonly default_prompt: string;
  /** Seconds since the epoch, as upstream's time.time(). */
  readonly opened_at: number;
}

interface Held {
  readonly info: DialogInfo;
  readonly dialog: Dialog;
  readonly timer: NodeJS.Timeout;
}

export type AnswerResult = { ok: true; dialog: DialogInfo } | { ok: false; error: string };

export class PageDialogs {
  private readonly held = new Map<string, Held>();
  private sequence = 0;
  private leavingPage = 0;
  private waiters: (() => void)[] = [];

  constructor(
    private readonly log: (text: string) => void,
    private readonly timeoutMs = DIALOG_TIMEOUT_MS,
  ) {}

  /** The page's `dialog` listener. */
  readonly onDialog = (dialog: Dialog): void => {
    if (this.leavingPage > 0) {
      const leave = dialog.type() === "beforeunload";
      this.log(`${dialog.type()}: ${dialog.message()} (${leave ? "accepted" : "dismissed"}: while navigating)`);
      void (leave ? dialog.accept() : dialog.dismiss()).catch(() => undefined);
      return;
    }
    const id = `d-${++this.sequence}`;
    const info: DialogInfo = {
      id,
      type: dialog.type(),
      message: dialog.message(),
      default_prompt: dialog.defaultValue(),
      opened_at: Date.now() / 1000,
    };
    // unref: a dialog left open must not keep the server alive once the editor has gone.
    const timer = setTimeout(
      () => this.close(id, false, `not answered within ${this.timeoutMs / 1000} s`),
      this.timeoutMs,
    ).unref();
    this.held.set(id, { info, dialog, timer });
    const waiters = this.waiters;
    this.waiters = [];
    for (const wake of waiters) wake();
  };

  get pending(): DialogInfo[] {
    return [...this.held.values()].map((h) => h.info);
  }

  /** Resolves once a dialog is pending (at once when one already is); `stop` ends the wait without one. */
  whenOpen(): { opened: Promise<void>; stop: () => void } {
    if (this.held.size > 0) return { opened: Promise.resolve(), stop: () => undefined };
    let wake: () => void = () => undefined;
    const opened = new Promise<void>((resolve) => {
      wake = resolve;
      this.waiters.push(resolve);
    });
    return { opened, stop: () => void (this.waiters = this.waiters.filter((w) => w !== wake)) };
  }

  /** The model's answer (upstream's respond_to_dialog, with its error texts). */
  async answer(accept: boolean, promptText: string | undefined, dialogId: string | undefined): Promise<AnswerResult> {
    const pending = [...this.held.values()];
    if (pending.length === 0) return { ok: false, error: "no dialog is currently open" };
    let target: Held | undefined;
    if (dialogId) {
      target = this.held.get(dialogId);
      if (!target)
        return {
          ok: false,
          error: `dialog_id '${dialogId}' not found (known: ${JSON.stringify([...this.held.keys()].sort())})`,
        };
    } else if (pending.length > 1) {
      return {
        ok: false,
        error: `${pending.length} pending dialogs; specify dialog_id. Candidates: ${JSON.stringify(pending.map((h) => h.info.id))}`,
      };
    } else target = pending[0]!;
    this.retire(target.info.id);
    try {
      if (accept) await target.dialog.accept(target.info.type === "prompt" ? (promptText ?? "") : undefined);
      else await target.dialog.dismiss();
    } catch (error) {
      // Usually the dialog closed meanwhile (the page went away); it is retired either way, as upstream's is.
      return { ok: false, error: (error as Error).message.split("\n")[0]! };
    }
    return { ok: true, dialog: target.info };
  }

  /** Dismisses every pending dialog (before a navigation), logging why. */
  dismissAll(why: string): void {
    for (const id of [...this.held.keys()]) this.close(id, false, why);
  }

  /** Runs a navigation away from the page: its beforeunload is accepted, not held. */
  async leaving<T>(work: () => Promise<T>): Promise<T> {
    this.dismissAll("before navigating");
    this.leavingPage++;
    try {
      return await work();
    } finally {
      this.leavingPage--;
    }
  }

  /** The page closed: its dialogs went with it. */
  forget(): void {
    for (const id of [...this.held.keys()]) this.retire(id);
  }

  private close(id: string, accept: boolean, why: string): void {
    const held = this.held.get(id);
    if (!held) return;
    this.retire(id);
    this.log(`${held.info.type}: ${held.info.message} (${accept ? "accepted" : "dismissed"}: ${why})`);
    void (accept ? held.dialog.accept() : held.dialog.dismiss()).catch(() => undefined);
  }

  private retire(id: string): void {
    const held = this.held.get(id);
    if (held) clearTimeout(held.timer);
    this.held.delete(id);
  }
}
