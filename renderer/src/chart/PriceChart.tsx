import { useEffect, useMemo, useRef, useState } from 'react';
import { CandlestickSeries, CrosshairMode, HistogramSeries, LineSeries, type IChartApi, type ISeriesApi, type MouseEventParams, type UTCTimestamp } from 'lightweight-charts';
import { useSelection, useTape } from '../api/hooks.js';
import { tapeView } from '../panels/TapePanel.js';
import { RANGES, RANGE_ORDER, buildCandles, seriesChange, type ChartMode, type ChartRange } from './chartSeries.js';
import { tickDecimals } from '../format.js';
import { usePriceHistory } from './usePriceHistory.js';
import { createTerminalChart } from './terminalChart.js';

interface Hover {
  time: number;
  price: number;
}

/**
 * Price history of the selected outcome as candles with volume bars, or the book's closing mid as a line:
 * `/prices-history` buckets (OHLC, volume, mid) plus the public tape's newer trades, drawn with
 * TradingView's lightweight-charts. Prices show at the market's tick; the chart fills its slot.
 */
export function PriceChart() {
  const { market, tokenId } = useSelection();
  const [range, setRange] = useState<ChartRange>('1D');
  const [mode, setMode] = useState<ChartMode>('last');
  const history = usePriceHistory(tokenId, range);
  const tape = useTape(tokenId);
  const [hover, setHover] = useState<Hover | undefined>();
  const box = useRef<HTMLDivElement>(null);
  const chart = useRef<IChartApi | undefined>(undefined);
  const candleSeries = useRef<ISeriesApi<'Candlestick'> | undefined>(undefined);
  const volumeSeries = useRef<ISeriesApi<'Histogram'> | undefined>(undefined);
  const midSeries = useRef<ISeriesApi<'Line'> | undefined>(undefined);
  const tick = market?.minimum_tick_size ?? '0.01';

  const candles = useMemo(() => {
    const trades = (tape.data ?? []).map((t) => ({ match_time: t.match_time, size: t.size, ...tapeView(t, tokenId ?? '') }));
    return buildCandles(history.data ?? [], trades, range, Math.floor(Date.now() / 1000));
  }, [history.data, tape.data, range, tokenId]);
  const mids = useMemo(() => candles.filter((c) => c.mid !== undefined), [candles]);

  useEffect(() => {
    const el = box.current;
    if (!el) return;
    const { chart: c, up, down } = createTerminalChart(el, {
      crosshair: { mode: CrosshairMode.Normal },
      rightPriceScale: { scaleMargins: { top: 0.1, bottom: 0.1 } },
    });
    const cs = c.addSeries(CandlestickSeries, { upColor: up, downColor: down, borderUpColor: up, borderDownColor: down, wickUpColor: up, wickDownColor: down });
    // Volume bars on their own scale along the bottom fifth, under the candles.
    const vs = c.addSeries(HistogramSeries, { priceScaleId: 'volume', priceFormat: { type: 'volume' }, color: 'rgba(128,140,160,0.45)', lastValueVisible: false, priceLineVisible: false });
    c.priceScale('volume').applyOptions({ scaleMargins: { top: 0.8, bottom: 0 } });
    const ms = c.addSeries(LineSeries, { color: '#4c9aff', lineWidth: 2, visible: false });
    const onMove = (p: MouseEventParams) => {
      const d = (p.seriesData.get(cs) ?? p.seriesData.get(ms)) as { close?: number; value?: number } | undefined;
      const price = d?.close ?? d?.value;
      setHover(p.time !== undefined && price !== undefined ? { time: p.time as number, price } : undefined);
    };
    c.subscribeCrosshairMove(onMove);
    chart.current = c;
    candleSeries.current = cs;
    volumeSeries.current = vs;
    midSeries.current = ms;
    return () => {
      c.unsubscribeCrosshairMove(onMove);
      c.remove();
      chart.current = undefined;
      candleSeries.current = undefined;
      volumeSeries.current = undefined;
      midSeries.current = undefined;
    };
  }, []);

  // Prices at the market's tick (0.01 → two decimals; the mid can fall half a tick between, one more).
  useEffect(() => {
    const dp = tickDecimals(tick);
    const minMove = Number(tick);
    candleSeries.current?.applyOptions({ priceFormat: { type: 'price', precision: dp, minMove } });
    midSeries.current?.applyOptions({ priceFormat: { type: 'price', precision: dp + 1, minMove: minMove / 10 } });
  }, [tick]);

  useEffect(() => {
    // Short ranges label hours and minutes, long ones dates only (no seconds anywhere).
    const spec = RANGES[range];
    chart.current?.applyOptions({ timeScale: { timeVisible: spec.seconds !== undefined && spec.seconds <= 86_400, secondsVisible: false } });
  }, [range]);

  useEffect(() => {
    const last = mode === 'last';
    candleSeries.current?.applyOptions({ visible: last });
    volumeSeries.current?.applyOptions({ visible: last });
    midSeries.current?.applyOptions({ visible: !last });
    candleSeries.current?.setData(candles.map((c) => ({ time: c.time as UTCTimestamp, open: c.open, high: c.high, low: c.low, close: c.close })));
    volumeSeries.current?.setData(candles.map((c) => ({ time: c.time as UTCTimestamp, value: c.volume, color: c.close >= c.open ? 'rgba(47,208,138,0.35)' : 'rgba(255,91,110,0.35)' })));
    midSeries.current?.setData(mids.map((c) => ({ time: c.time as UTCTimestamp, value: c.mid! })));
    chart.current?.timeScale().fitContent();
  }, [candles, mids, mode]);

  const summary = seriesChange(candles, mode);
  const dp = tickDecimals(tick);
  const lastCandle = candles.at(-1);
  const outcome = market?.tokens.find((t) => t.token_id === tokenId)?.outcome ?? '';
  return (
    <section className="panel chart-panel" data-testid="price-chart" data-points={candles.length} data-mids={mids.length} data-mode={mode} data-last={summary?.last ?? ''} data-candle={lastCandle ? `${lastCandle.open} ${lastCandle.high} ${lastCandle.low} ${lastCandle.close} ${lastCandle.volume}` : ''}>
      <header className="panel-head">
        <h2>
          {mode === 'mid' ? 'Mid' : 'Price'} · {outcome}
          {summary ? (
            <span className={summary.change >= 0 ? 'up' : 'down'} data-testid="chart-last">
              {' '}
              {summary.last.toFixed(mode === 'mid' ? dp + 1 : dp)} ({summary.change >= 0 ? '+' : ''}
              {summary.change.toFixed(mode === 'mid' ? dp + 1 : dp)})
            </span>
          ) : null}
        </h2>
        <div className="panel-actions" role="group" aria-label="Chart series">
          <button className={mode === 'last' ? 'on' : ''} aria-pressed={mode === 'last'} data-testid="chart-mode-last" onClick={() => setMode('last')} title="Candles of the trade prices, with volume">
            Last
          </button>
          <button className={mode === 'mid' ? 'on' : ''} aria-pressed={mode === 'mid'} data-testid="chart-mode-mid" onClick={() => setMode('mid')} title="The book's midpoint at each candle's close">
            Mid
          </button>
        </div>
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
              {new Date(hover.time * 1000).toLocaleString([], { month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit' })} · {hover.price.toFixed(mode === 'mid' ? dp + 1 : dp)}
            </span>
          ) : candles.length === 0 ? (
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
