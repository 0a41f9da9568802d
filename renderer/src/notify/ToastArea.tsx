import { useEffect, useState } from 'react';
import { Toaster } from 'sonner';

/** Where toasts sit: the chart slot, below its toolbar (read from the layout, so it follows resizes). */
const SLOT = '[data-slot="chart"]';
const TOOLBAR = 40;

/**
 * The terminal's toaster, placed over the price chart's plot: the one area with no control in it at
 * every supported size (bottom-right covered the ticket's Buy button, bottom-left the tables' headers
 * and Cancel buttons; issue 23, item 5). It keeps to the plot's right side, because the TradingView
 * attribution (the library's logo and the footer link) sits on the left, and at 1024×700 the chart is
 * short enough for a toast to reach its foot. The offset follows the chart slot as the window and the
 * splits move; without a chart slot the toasts fall back to the bottom-left corner.
 */
export function ToastArea() {
  const [box, setBox] = useState<{ top: number; left: number; width: number } | undefined>();
  useEffect(() => {
    let el: Element | null = null;
    const measure = () => {
      el ??= document.querySelector(SLOT);
      if (!el) return;
      const r = el.getBoundingClientRect();
      setBox((b) => (b && b.top === Math.round(r.top) && b.left === Math.round(r.left) && b.width === Math.round(r.width) ? b : { top: Math.round(r.top), left: Math.round(r.left), width: Math.round(r.width) }));
    };
    const ro = new ResizeObserver(measure);
    const attach = () => {
      el = document.querySelector(SLOT);
      if (el) ro.observe(el);
      ro.observe(document.body);
      measure();
    };
    attach();
    window.addEventListener('resize', measure);
    // The slot mounts with the first market; the splits move it without resizing the body.
    const timer = setInterval(measure, 1000);
    return () => {
      ro.disconnect();
      window.removeEventListener('resize', measure);
      clearInterval(timer);
    };
  }, []);
  const width = box ? Math.max(240, Math.min(356, box.width - 80)) : 356;
  return (
    <Toaster
      theme="dark"
      position={box ? 'top-left' : 'bottom-left'}
      offset={box ? { top: box.top + TOOLBAR, left: box.left + Math.max(12, box.width - width - 12) } : { left: 16, bottom: 36 }}
      style={{ ['--width' as string]: `${width}px` }}
      richColors
      closeButton
      toastOptions={{ className: 'toast' }}
    />
  );
}
