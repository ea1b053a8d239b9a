// The ESM entry point: the same module as index.cjs (one instance of it).
import envelope from './index.cjs';

export const {
  classify,
  invalidReply,
  logValue,
  readMessages,
  Reader,
  Session,
  Kind,
  IdKind,
  Role,
  Profile,
  Action,
  DEFAULT_MAX_LINE,
  LIBRARY_VERSION,
  ABI_VERSION,
} = envelope;
export default envelope;
