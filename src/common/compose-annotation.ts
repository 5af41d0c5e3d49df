/**
 * An annotation as forge-emit and `forge emit` write it, made by the codec's
 * emitter and refused before anything is written when it would be wrong:
 * input the codec cannot write faithfully, a complete annotation that does
 * not validate, or one longer than GitHub keeps. Pure.
 */
import { EmitError, emitAnnotation, MAX_BODY_LENGTH, parse, validate, type EmitInput } from '../codec/index.js';
import { UsageError } from './errors.js';

/** The annotation would be invalid or too long: a finding about the input, not a misuse of the command. */
export class InvalidAnnotation extends UsageError {}

export interface Composed {
  text: string;
  warnings: string[];
}

/** The annotation text; input the codec cannot write faithfully is the user's mistake. */
function emitOrRefuse(type: string, input: EmitInput) {
  try {
    return emitAnnotation(type, input);
  } catch (e) {
    if (e instanceof EmitError) throw new UsageError(e.message);
    throw e;
  }
}

export function composeAnnotation(type: string, content: EmitInput, body: string | undefined, validateIt = true): Composed {
  const emitted = emitOrRefuse(type, body === undefined ? content : { ...content, body });
  // Validate what would be written: an invalid complete annotation is never posted.
  const [annotation] = parse(emitted.text);
  const result = validate(annotation);
  // A partial annotation is unfinished by design; only a complete one must be valid.
  if (validateIt && content.status !== 'partial' && result.errors.length > 0)
    throw new InvalidAnnotation(`the ${type} annotation would be invalid: ${result.errors.join('; ')}`);
  if (emitted.text.length > MAX_BODY_LENGTH)
    throw new InvalidAnnotation(
      `the annotation is ${emitted.text.length} characters; GitHub's limit is ${MAX_BODY_LENGTH} (it is never truncated: that would drop the sentinel)`,
    );
  return { text: emitted.text, warnings: [...emitted.warnings, ...result.warnings] };
}
