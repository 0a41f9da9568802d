import { useEffect, useMemo, useRef, useState } from 'react';
import { ColorType, CrosshairMode, LineSeries, createChart, type IChartApi, type ISeriesApi, type MouseEventParams, type UTCTimestamp } from 'lightweight-charts';
import { useSelection, useTape } from '../api/hooks.js';
import { tapeView } from '../panels/TapePanel.js';
import { RANGE_ORDER, buildSeries, seriesChange, type ChartRange } from './chartSeries.js';
import { usePriceHistory } from './usePriceHistory.js';

interface Hover {
  time: number;
  price: number;
}

/**
 * Price history of the selected outcome: `/prices-history` buckets plus the public tape's newer trades
 * (polled until the streams land), drawn with TradingView's lightweight-charts.
 */
export function PriceChart() {
  const { market, tokenId } = useSelection();
  const [range, setRange] = useState<ChartRange>('1D');
  const history = usePriceHistory(tokenId, range);
  const tape = useTape(tokenId);
  const [hover, setHover] = useState<Hover | undefined>();
  const box = useRef<HTMLDivElement>(null);
  const chart = useRef<IChartApi | undefined>(undefined);
  const series = useRef<ISeriesApi<'Line'> | undefined>(undefined);

  const points = useMemo(() => {
    const trades = (tape.data ?? []).map((t) => ({ match_time: t.match_time, ...tapeView(t, tokenId ?? '') }));
    return buildSeries(history.data ?? [], trades, range, Math.floor(Date.now() / 1000));
  }, [history.data, tape.data, range, tokenId]);

  useEffect(() => {
    const el = box.current;
    if (!el) return;
    const c = createChart(el, {
      autoSize: true,
      // attributionLogo links to tradingview.com on the chart itself, as the library's licence asks.
      layout: { background: { type: ColorType.Solid, color: 'transparent' }, textColor: '#9aa4b2', attributionLogo: true, fontSize: 11 },
      grid: { vertLines: { color: 'rgba(128,128,128,0.12)' }, horzLines: { color: 'rgba(128,128,128,0.12)' } },
      crosshair: { mode: CrosshairMode.Normal },
      timeScale: { timeVisible: true, secondsVisible: false },
      rightPriceScale: { scaleMargins: { top: 0.1, bottom: 0.1 } },
    });
    const s = c.addSeries(LineSeries, { color: '#4c9aff', lineWidth: 2, priceFormat: { type: 'price', precision: 3, minMove: 0.001 } });
    const onMove = (p: MouseEventParams) => {
      const d = p.seriesData.get(s) as { value?: number } | undefined;
      setHover(p.time !== undefined && d?.value !== undefined ? { time: p.time as number, price: d.value } : undefined);
    };
    c.subscribeCrosshairMove(onMove);
    chart.current = c;
    series.current = s;
    return () => {
      c.unsubscribeCrosshairMove(onMove);
      c.remove();
      chart.current = undefined;
      series.current = undefined;
    };
  }, []);

  useEffect(() => {
    series.current?.setData(points.map((p) => ({ time: p.time as UTCTimestamp, value: p.value })));
    chart.current?.timeScale().fitContent();
  }, [points]);

  const summary = seriesChange(points);
  const outcome = market?.tokens.find((t) => t.token_id === tokenId)?.outcome ?? '';
  return (
    <section className="panel chart-panel" data-testid="price-chart" data-points={points.length} data-last={summary?.last ?? ''}>
      <header className="panel-head">
        <h2>
          Price · {outcome}
          {summary ? (
            <span className={summary.change >= 0 ? 'up' : 'down'} data-testid="chart-last">
              {' '}
              {summary.last.toFixed(3)} ({summary.change >= 0 ? '+' : ''}
              {summary.change.toFixed(3)})
            </span>
          ) : null}
        </h2>
        <div className="panel-actions" role="group" aria-label="Chart range">
          {RANGE_ORDER.map((r) => (
            <button key={r} className={r === range ? 'on' : ''} aria-pressed={r === range} data-testid={`chart-range-${r}`} onClick={() => setRange(r)}>
              {r}
            </button>
          ))}
        </div>
      </header>
      <div className="panel-body chart-body">
        <div ref={box} style={{ position: 'absolute', inset: 0 }} data-testid="chart-canvas" />
        <div className="chart-legend dim" data-testid="chart-crosshair" style={{ position: 'absolute', left: 8, top: 4, pointerEvents: 'none', zIndex: 3 }}>
          {hover ? (
            <span data-testid="chart-crosshair-price" data-price={hover.price}>
              {new Date(hover.time * 1000).toLocaleString()} · {hover.price.toFixed(3)}
            </span>
          ) : points.length === 0 ? (
            <span data-testid="chart-empty">No trades in this range yet.</span>
          ) : null}
        </div>
      </div>
      <footer className="chart-attribution dim" style={{ fontSize: 10, padding: '0 8px 4px' }}>
        Charts by{' '}
        <a href="https://www.tradingview.com/" target="_blank" rel="noreferrer">
          TradingView
        </a>{' '}
        Lightweight Charts™ (Apache-2.0, © TradingView, Inc.)
      </footer>
    </section>
  );
}
