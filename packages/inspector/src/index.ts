export {
  type BuildDiff,
  type BuildMessage,
  type BuildReport,
  type CachedPrefix,
  describeBuilds,
  type MessageFate,
} from './build-report.js';
export { type ConversationReport, readConversationReport } from './conversation-report.js';
export { type ConversationSummary, listConversations } from './conversation-summary.js';
export { formatBuild, formatConversation, formatConversationList } from './format-report.js';
export { InspectorError, type InspectorErrorCode } from './inspector-error.js';
export { type MessageRecord, PREVIEW_LENGTH, readMessageRecords } from './message-records.js';
export { type InspectedDatabase, openInspectedDatabase } from './open-inspected-database.js';
export { type ProgressStream, progressReporter } from './progress-reporter.js';
export { type ReadBuildsOptions, type RecordedBuild, readBuilds } from './recorded-build.js';
export { type CliIo, runCli, USAGE } from './run-cli.js';
export { type TerminalStyle, terminalStyle, wantsColor } from './terminal-style.js';
export { renderViewerPage, type ViewerData } from './viewer-page.js';
export { startViewer, type Viewer, type ViewerOptions } from './viewer-server.js';
