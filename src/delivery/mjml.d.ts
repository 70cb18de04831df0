/** The part of mjml's API this service uses: the package ships no type declarations. */
declare module 'mjml' {
  interface MjmlError {
    line: number;
    message: string;
    tagName: string;
    formattedMessage: string;
  }

  interface MjmlOptions {
    /** 'strict' throws on invalid MJML; 'soft' reports it in `errors`. */
    validationLevel?: 'strict' | 'soft' | 'skip';
    /** Web fonts to link when the markup names them: `{}` links none. */
    fonts?: Record<string, string>;
    keepComments?: boolean;
    minify?: boolean;
    beautify?: boolean;
  }

  interface MjmlResult {
    html: string;
    errors: MjmlError[];
  }

  export default function mjml2html(input: string, options?: MjmlOptions): Promise<MjmlResult>;
}
