import { describeError } from '../api/describeError.js';

/** A server error shown with its code and its message, never swallowed. */
export function ErrorLine(props: { error: unknown; testId?: string; prefix?: string }) {
  if (!props.error) return null;
  const e = describeError(props.error);
  return (
    <div className="error-line" data-testid={props.testId ?? 'error'} role="alert">
      {props.prefix ? <span className="muted">{props.prefix} </span> : null}
      {e.status ? <span className="err-status">{e.status}</span> : null}
      <code className="err-code">{e.code}</code>
      <span className="err-msg">{e.message}</span>
    </div>
  );
}
