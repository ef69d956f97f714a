import { ItemStore } from "./item-store.js";
import type { ChatItem, ChatSnapshot, HostNotificationMethod, HostNotifications } from "./protocol.js";

/** One host notification as the reducer receives it: the JSON-RPC method and its params. */
export type HostNotification = {
  [M in HostNotificationMethod]: { readonly method: M; readonly params: HostNotifications[M] };
}[HostNotificationMethod];

/**
 * What the view draws: the snapshot's session-wide fields as they stand, with the items in a persistent store. The
 * host owns the truth; this is its latest copy, rebuilt from a snapshot on every (re)open.
 */
export interface ChatState extends Omit<ChatSnapshot, "items"> {
  readonly items: ItemStore;
  /** Bumped by every change; an item's entry records the clock it last changed at. */
  readonly clock: number;
  /** Bumped by every snapshot: the renderer drops everything it drew for an older epoch. */
  readonly epoch: number;
}

export const initialState: ChatState = {
  items: ItemStore.empty,
  busy: false,
  title: "",
  commands: [],
  pickers: [],
  attachments: [],
  clock: 0,
  epoch: 0,
};

/**
 * The view's state after one host notification. Pure: the old state is never modified (the item store is persistent),
 * so a render can compare item versions against what it drew last. Unknown ids and mismatched kinds leave the state
 * as it was rather than throwing: a late delta for an item a snapshot already replaced is normal, not an error.
 */
export function reduce(state: ChatState, notification: HostNotification): ChatState {
  const clock = state.clock + 1;
  switch (notification.method) {
    case "chat/snapshot":
      return fromSnapshot(notification.params, clock, state.epoch + 1);
    case "chat/item":
      return { ...state, clock, items: state.items.put({ item: notification.params.item, version: clock }) };
    case "chat/append":
      return append(state, notification.params.id, notification.params.text, clock);
    case "chat/busy":
      return notification.params.busy === state.busy ? state : { ...state, clock, busy: notification.params.busy };
    case "chat/title":
      return { ...state, clock, title: notification.params.title };
    case "chat/commands":
      return { ...state, clock, commands: notification.params.commands };
    case "chat/pickers":
      return { ...state, clock, pickers: notification.params.pickers };
    case "chat/usage":
      return { ...state, clock, usage: notification.params.usage };
    case "chat/attachments":
      return { ...state, clock, attachments: notification.params.attachments };
    case "chat/focus":
      // Focus is an instruction to the UI, not state: main.ts acts on it.
      return state;
  }
}

function fromSnapshot(snapshot: ChatSnapshot, clock: number, epoch: number): ChatState {
  return {
    items: ItemStore.from(snapshot.items.map((item) => ({ item, version: clock }))),
    busy: snapshot.busy,
    title: snapshot.title,
    commands: snapshot.commands,
    pickers: snapshot.pickers,
    ...(snapshot.usage ? { usage: snapshot.usage } : {}),
    attachments: snapshot.attachments,
    clock,
    epoch,
  };
}

function append(state: ChatState, id: string, text: string, clock: number): ChatState {
  const entry = state.items.get(id);
  if (!entry || text === "") return state;
  const item = appended(entry.item, text);
  return item ? { ...state, clock, items: state.items.put({ item, version: clock }) } : state;
}

/** The item with `text` appended to its streamed field, or undefined for kinds that do not stream. */
function appended(item: ChatItem, text: string): ChatItem | undefined {
  switch (item.kind) {
    case "agent":
      return { ...item, markdown: item.markdown + text };
    case "thought":
      return { ...item, text: item.text + text };
    case "tool":
      return { ...item, output: item.output + text };
    default:
      return undefined;
  }
}
