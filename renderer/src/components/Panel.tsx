import type { ReactNode } from 'react';

export function Panel(props: { title: ReactNode; actions?: ReactNode; children: ReactNode; className?: string; testId?: string }) {
  return (
    <section className={`panel ${props.className ?? ''}`} data-testid={props.testId}>
      <header className="panel-head">
        <h2>{props.title}</h2>
        {props.actions ? <div className="panel-actions">{props.actions}</div> : null}
      </header>
      <div className="panel-body">{props.children}</div>
    </section>
  );
}

export function Empty(props: { children: ReactNode; testId?: string }) {
  return (
    <div className="empty" data-testid={props.testId}>
      {props.children}
    </div>
  );
}
