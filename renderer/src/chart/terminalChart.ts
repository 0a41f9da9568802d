import { ColorType, createChart, type DeepPartial, type IChartApi, type TimeChartOptions } from 'lightweight-charts';

/**
 * A lightweight-charts chart in the terminal's look (transparent background, muted text and grid, the
 * library's attribution link, a time axis in minutes), with the theme's up and down colours read from
 * the element's CSS variables. `extra` adds what one chart needs beyond that.
 */
export function createTerminalChart(el: HTMLElement, extra: DeepPartial<TimeChartOptions> = {}): { chart: IChartApi; up: string; down: string } {
  const chart = createChart(el, {
    autoSize: true,
    // attributionLogo links to tradingview.com on the chart itself, as the library's licence asks.
    layout: { background: { type: ColorType.Solid, color: 'transparent' }, textColor: '#9aa4b2', attributionLogo: true, fontSize: 11 },
    grid: { vertLines: { color: 'rgba(128,128,128,0.12)' }, horzLines: { color: 'rgba(128,128,128,0.12)' } },
    timeScale: { timeVisible: true, secondsVisible: false },
    ...extra,
  });
  const style = getComputedStyle(el);
  return { chart, up: style.getPropertyValue('--up').trim() || '#2fd08a', down: style.getPropertyValue('--down').trim() || '#ff5b6e' };
}
