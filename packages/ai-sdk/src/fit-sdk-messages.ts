import {
  type DataSnapshot,
  type FitOptions,
  isUnchanged,
  type Message,
  snapshotOf,
  type ToolDeclaration,
} from '@ctxkit/context-core';
import {
  adapterManager,
  type ContextAdapterOptions,
  repairHandler,
} from './context-adapter-options.js';
import { sameValue } from './same-value.js';
import type { SdkForm, SdkMessage } from './sdk-message.js';
import { toContextMessages } from './to-context-messages.js';
import { toSdkMessages } from './to-sdk-messages.js';

/** What one fit needs besides the messages. */
export interface SdkFitCall {
  /** The tools sent with the request. */
  tools: readonly ToolDeclaration[];
  /** The system prompt sent beside the messages, when it is not among them. */
  system?: string | readonly Message[];
  /** Aborts the fit. */
  signal?: AbortSignal;
}

/** Messages of a step, each as it was converted, and their ctxkit form. */
interface Converted {
  readonly sdk: readonly SdkMessage[];
  readonly snapshots: readonly DataSnapshot[];
  readonly messages: readonly Message[];
}

/** Fits the AI SDK messages of one step; see {@link sdkFitter}. */
export type SdkFitter = (
  messages: readonly SdkMessage[],
  call: SdkFitCall,
) => Promise<readonly SdkMessage[]>;

/**
 * A fitter of AI SDK messages with the adapter's manager: it converts the messages, fits them
 * with the tools and system prompt, and converts the result back; when the fit keeps every
 * message, the input array itself comes back.
 *
 * An agent sends its whole history at every step, one step longer each time. The fitter keeps the
 * previous step's messages, a snapshot of each as it was converted, and their ctxkit form: where
 * the new step starts with the same messages (the same objects, or equal ones), it hands the
 * manager the same ctxkit objects, whose token counts are cached, so a step counts only what it
 * added; and repairs are reported once, for the messages where they first appear. A message
 * changed since it was converted, even in place, is converted again: no stale form is counted
 * or sent.
 *
 * @param options - the adapter's options
 * @param form - the AI SDK form of the messages
 * @returns the fitter
 */
export function sdkFitter(options: ContextAdapterOptions, form: SdkForm): SdkFitter {
  const manager = adapterManager(options);
  const onRepair = repairHandler(options);
  let previous: Converted = { sdk: [], snapshots: [], messages: [] };
  return async (messages, call) => {
    const { messages: converted, repairs } = toContextMessages(messages, {
      keepFirstUserMessage: options.keepFirstUserMessage ?? true,
    });
    const sdk: SdkMessage[] = [...messages];
    const snapshots: DataSnapshot[] = [];
    let same = 0;
    while (same < messages.length && same < previous.sdk.length) {
      const now = messages[same] as SdkMessage;
      const before = previous.sdk[same] as SdkMessage;
      const snapshot = previous.snapshots[same] as DataSnapshot;
      // The ctxkit form (and the objects its opaque parts stand for) came from `before` as it was.
      if (!isUnchanged(snapshot, before) || (now !== before && !sameValue(now, before))) break;
      converted[same] = previous.messages[same] as Message;
      sdk[same] = before;
      snapshots.push(snapshot);
      same += 1;
    }
    for (let index = same; index < messages.length; index += 1) {
      snapshots.push(snapshotOf(messages[index]));
    }
    previous = { sdk, snapshots, messages: converted };
    for (const repair of repairs) if (repair.index >= same) onRepair(repair);
    const fitOptions: FitOptions = {
      tools: call.tools,
      ...(call.system === undefined ? {} : { system: call.system }),
      ...(call.signal === undefined ? {} : { signal: call.signal }),
      ...(options.conversationId === undefined ? {} : { conversationId: options.conversationId }),
    };
    const { messages: fitted, report } = await manager.fit(converted, fitOptions);
    options.onFit?.(report);
    const unchanged =
      fitted.length === converted.length && fitted.every((message, i) => message === converted[i]);
    return unchanged ? messages : toSdkMessages(fitted, form);
  };
}
