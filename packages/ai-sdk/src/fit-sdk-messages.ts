import {
  type FitOptions,
  type Message,
  sameData,
  type ToolDeclaration,
} from '@ctxkit/context-core';
import {
  adapterManager,
  type ContextAdapterOptions,
  repairHandler,
} from './context-adapter-options.js';
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

/** Messages of a step and their ctxkit form. */
interface Converted {
  readonly sdk: readonly SdkMessage[];
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
 * An agent sends its whole history at every step, one step longer each time. The fitter converts
 * every message and keeps the previous step's messages and their ctxkit form: where the new step
 * starts with the same messages (the same objects, or equal ones) whose conversion holds the same
 * data as before (see `sameData`), it hands the manager the same ctxkit objects, whose token
 * counts are cached, so a step counts only what it added; and repairs are reported once, for the
 * messages where they first appear. Comparing the conversions sees every field the conversion
 * reads by name, changed even in place or not enumerable (the AI SDK reads and sends such a
 * field; a snapshot does not walk it): no stale form is counted or sent.
 *
 * @param options - the adapter's options
 * @param form - the AI SDK form of the messages
 * @returns the fitter
 */
export function sdkFitter(options: ContextAdapterOptions, form: SdkForm): SdkFitter {
  const manager = adapterManager(options);
  const onRepair = repairHandler(options);
  let previous: Converted = { sdk: [], messages: [] };
  return async (messages, call) => {
    const { messages: converted, repairs } = toContextMessages(messages, {
      keepFirstUserMessage: options.keepFirstUserMessage ?? true,
    });
    const sdk: SdkMessage[] = [...messages];
    let same = 0;
    while (same < messages.length && same < previous.sdk.length) {
      const now = messages[same] as SdkMessage;
      const before = previous.sdk[same] as SdkMessage;
      const known = previous.messages[same] as Message;
      // The objects the ctxkit form's opaque parts stand for came from `before`.
      if ((now !== before && !sameData(now, before)) || !sameData(known, converted[same])) {
        break;
      }
      converted[same] = known;
      sdk[same] = before;
      same += 1;
    }
    previous = { sdk, messages: converted };
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
