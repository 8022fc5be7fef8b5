import { z } from 'zod';

/** A regular expression given as a string; rejected at validation time when it does not compile. */
export const regexString = z.string().min(1).superRefine((s, ctx) => {
  try {
    new RegExp(s, 'u');
  } catch (err) {
    ctx.addIssue({ code: 'custom', message: `invalid regular expression: ${(err as Error).message}` });
  }
});
