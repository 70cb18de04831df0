/**
 * A JSON number a double cannot hold as written (more digits than it keeps, or exponent
 * notation), as the body parser keeps it: by its text, and as a number, not as text. The
 * numeric rules read the text and decide; a text parameter refuses it like any other number.
 */
export class JsonNumberText {
  /** `text` has a default: class-transformer rebuilds the object bare, then copies it over. */
  constructor(readonly text = '') {}
}
