// The session-scoped handlers, gathered so the server can load them (and the engine behind them) in one lazy step.
export { handleAuthenticate } from "./authentication.js";
export { handleCheckpointPreview, handleCheckpointRestore } from "./checkpoint-methods.js";
export {
  handleCloseSession,
  handleDeleteSession,
  handleListSessions,
  handleLoadSession,
  handleResumeSession,
} from "./session-history.js";
export { handleNewSession, primeConfig } from "./session-new.js";
export { handleCancel, handlePrompt } from "./session-prompt.js";
export { handleSetConfigOption, handleSetMode } from "./session-settings.js";
