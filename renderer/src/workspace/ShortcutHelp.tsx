import { useEffect, useState } from 'react';
import { Dialog } from 'radix-ui';
import { isTyping } from '../panels/MarketsPanel.js';

export const SHORTCUTS: { keys: string; what: string }[] = [
  { keys: '/', what: 'Search markets' },
  { keys: 'B / S', what: 'Buy / sell: jump to the ticket’s price' },
  { keys: '↑ ↓', what: 'Price one tick up / down (an empty price starts at the best price)' },
  { keys: 'Enter', what: 'Review the order (confirmation dialog), Enter again to send' },
  { keys: 'Esc', what: 'Close a dialog' },
  { keys: '1 – 9', what: 'Bottom tabs: orders, trades, positions, holders, relayer, admin, mirrors, agents, report' },
  { keys: '] / [', what: 'Next / previous market tab (Ctrl+Tab / Ctrl+Shift+Tab in the desktop app)' },
  { keys: 'Ctrl/⌘ K', what: 'Command palette: markets and terminal actions by name' },
  { keys: '?', what: 'This help' },
];

/** `?` opens the list of keyboard shortcuts (issue 14, 9). */
export function ShortcutHelp() {
  const [open, setOpen] = useState(false);
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (isTyping(e) || e.metaKey || e.ctrlKey || e.altKey) return;
      if (e.key === '?') {
        e.preventDefault();
        setOpen(true);
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);
  return (
    <Dialog.Root open={open} onOpenChange={setOpen}>
      <Dialog.Portal>
        <Dialog.Overlay className="dialog-overlay" />
        <Dialog.Content className="dialog" data-testid="shortcut-help">
          <Dialog.Title>Keyboard shortcuts</Dialog.Title>
          <Dialog.Description className="dim">Outside text fields.</Dialog.Description>
          <table className="grid">
            <tbody>
              {SHORTCUTS.map((s) => (
                <tr key={s.keys}>
                  <td>
                    <kbd>{s.keys}</kbd>
                  </td>
                  <td>{s.what}</td>
                </tr>
              ))}
            </tbody>
          </table>
          <div className="dialog-actions">
            <Dialog.Close asChild>
              <button type="button">Close</button>
            </Dialog.Close>
          </div>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
