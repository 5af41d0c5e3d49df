/**
 * The annotation forge-emit writes, made from the typed inputs by the codec's
 * emitter and refused before any API call when it would be wrong: input the
 * codec cannot write faithfully, a complete annotation that does not validate,
 * or one longer than GitHub keeps. Pure.
 */
import { EmitError, emitAnnotation, MAX_BODY_LENGTH, parse, validate, type EmitInput } from '../codec/index.js';
import { UsageError } from '../common/errors.js';

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

export function composeAnnotation(type: string, content: EmitInput, body: string | undefined): Composed {
  const emitted = emitOrRefuse(type, body === undefined ? content : { ...content, body });
  // Validate what would be written: an invalid complete annotation is never posted.
  const [annotation] = parse(emitted.text);
  const result = validate(annotation);
  // A partial annotation is unfinished by design; only a complete one must be valid.
  if (content.status !== 'partial' && result.errors.length > 0)
    throw new UsageError(`the ${type} annotation would be invalid: ${result.errors.join('; ')}`);
  if (emitted.text.length > MAX_BODY_LENGTH)
    throw new UsageError(
      `the annotation is ${emitted.text.length} characters; GitHub's limit is ${MAX_BODY_LENGTH} (it is never truncated: that would drop the sentinel)`,
    );
  return { text: emitted.text, warnings: [...emitted.warnings, ...result.warnings] };
}
