import { checkName, invalidOption } from './check-option.js';

/**
 * The major version of a Gemini model id: 2 for `gemini-2.5-flash`, 3 for
 * `gemini-3-pro-preview`. A `models/` or gateway prefix (`google/`) is ignored.
 *
 * @param model - The model id.
 * @param caller - The public function, named in errors.
 * @returns the major version
 * @throws InvalidOptionError (`invalid_option`) when `model` is not a Gemini model id
 */
export function geminiMajorVersion(model: string, caller: string): number {
  checkName(caller, 'model', model);
  const match = /^gemini-(\d+)(?:[.-]|$)/.exec(model.slice(model.lastIndexOf('/') + 1));
  if (!match) {
    throw invalidOption(caller, 'model', model, 'a Gemini model id such as gemini-2.5-flash');
  }
  return Number(match[1]);
}
