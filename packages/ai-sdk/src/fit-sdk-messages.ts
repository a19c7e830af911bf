import {
  type FitOptions,
  type FitReport,
  type Message,
  type ProviderUsage,
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

/** What one fit gives. */
export interface SdkFit {
  /** The messages to send: the input array itself when the fit kept every message. */
  readonly messages: readonly SdkMessage[];
  /** The manager's report of the fit. */
  readonly report: FitReport;
}

/** Fits the AI SDK messages of one step, and learns from the usage; see {@link sdkFitter}. */
export interface SdkFitter {
  /**
   * Fits the messages of one step.
   *
   * @param messages - the step's messages, in the AI SDK form of the fitter
   * @param call - the tools, the system prompt, the signal
   * @returns the messages to send and the report
   */
  fit(messages: readonly SdkMessage[], call: SdkFitCall): Promise<SdkFit>;
  /**
   * Hands the manager what the provider reported for the prompt of one of this fitter's fits
   * (`ContextManager.recordUsage`): once per report, and not at all when the adapter's
   * `recordUsage` is `false` or the usage has no input count.
   *
   * @param report - the report of the fit whose prompt was sent
   * @param usage - what the provider reported for it, as `callUsage` or `stepUsage` read it
   */
  recordUsage(report: FitReport, usage: ProviderUsage | undefined): void;
}

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
 * Its `recordUsage` is where the adapters hand the manager what the provider reported for a
 * fitted prompt, each report at most once.
 *
 * @param options - the adapter's options
 * @param form - the AI SDK form of the messages
 * @returns the fitter
 */
export function sdkFitter(options: ContextAdapterOptions, form: SdkForm): SdkFitter {
  const manager = adapterManager(options);
  const onRepair = repairHandler(options);
  const recording = options.recordUsage !== false;
  const recorded = new WeakSet<FitReport>();
  let previous: Converted = { sdk: [], messages: [] };
  const fit = async (messages: readonly SdkMessage[], call: SdkFitCall): Promise<SdkFit> => {
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
    return { messages: unchanged ? messages : toSdkMessages(fitted, form), report };
  };
  return {
    fit,
    recordUsage(report, usage) {
      if (!recording || usage === undefined || recorded.has(report)) return;
      recorded.add(report);
      manager.recordUsage(report, usage);
    },
  };
}
