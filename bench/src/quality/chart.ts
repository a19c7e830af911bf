import type { StrategyResult } from './run-quality.js';

/**
 * An SVG chart of the results, written by hand: per strategy, its billed input cost under
 * Anthropic and OpenAI (left panel, dollars) and the share of marked facts its requests reached
 * (right panel, percent).
 *
 * @param results - one result per strategy, in table order
 * @returns the SVG document
 */
export function renderChart(results: readonly StrategyResult[]): string {
  const labelWidth = 190;
  const panelWidth = 300;
  const gap = 60;
  const rowHeight = 34;
  const top = 50;
  const height = top + results.length * rowHeight + 40;
  const width = labelWidth + panelWidth * 2 + gap + 60;
  const costLeft = labelWidth;
  const factsLeft = labelWidth + panelWidth + gap;
  const maxCost = Math.max(
    ...results.flatMap((result) => [
      result.billedCost.anthropic ?? 0,
      result.billedCost.openai ?? 0,
    ]),
    0.01,
  );
  const parts: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="system-ui, sans-serif" font-size="12" role="img" aria-labelledby="title">`,
    '<title id="title">Billed input cost and marked facts reachable per strategy</title>',
    `<rect width="${width}" height="${height}" fill="#ffffff"/>`,
    text(costLeft, 20, 'Billed input cost, caching included (USD)', 'start', 'bold'),
    text(factsLeft, 20, 'Marked facts reachable (%)', 'start', 'bold'),
    legend(costLeft, 36, '#4e79a7', 'Anthropic'),
    legend(costLeft + 100, 36, '#f28e2b', 'OpenAI'),
  ];
  results.forEach((result, index) => {
    const y = top + index * rowHeight;
    parts.push(text(labelWidth - 10, y + 16, result.strategy, 'end'));
    const bars: [number | null, string, number][] = [
      [result.billedCost.anthropic, '#4e79a7', y + 2],
      [result.billedCost.openai, '#f28e2b', y + 15],
    ];
    for (const [cost, color, barY] of bars) {
      const barWidth = cost === null ? 0 : (cost / maxCost) * (panelWidth - 50);
      parts.push(rect(costLeft, barY, barWidth, 12, color));
      parts.push(
        text(
          costLeft + barWidth + 4,
          barY + 10,
          cost === null ? 'n/a' : `$${cost.toFixed(2)}`,
          'start',
        ),
      );
    }
    const factsWidth = result.factsReachable * (panelWidth - 50);
    parts.push(rect(factsLeft, y + 5, factsWidth, 18, '#59a14f'));
    parts.push(
      text(
        factsLeft + factsWidth + 4,
        y + 18,
        `${(result.factsReachable * 100).toFixed(0)}%`,
        'start',
      ),
    );
  });
  const axisY = top + results.length * rowHeight + 4;
  parts.push(line(costLeft, top - 4, costLeft, axisY), line(factsLeft, top - 4, factsLeft, axisY));
  parts.push('</svg>');
  return `${parts.join('\n')}\n`;
}

// --- internal helpers ---

function escapeXml(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

function text(
  x: number,
  y: number,
  value: string,
  anchor: 'start' | 'end',
  weight = 'normal',
): string {
  return `<text x="${x.toFixed(1)}" y="${y.toFixed(1)}" text-anchor="${anchor}" font-weight="${weight}" fill="#222">${escapeXml(value)}</text>`;
}

function rect(x: number, y: number, width: number, height: number, color: string): string {
  return `<rect x="${x.toFixed(1)}" y="${y.toFixed(1)}" width="${width.toFixed(1)}" height="${height}" fill="${color}"/>`;
}

function line(x1: number, y1: number, x2: number, y2: number): string {
  return `<line x1="${x1}" y1="${y1}" x2="${x2}" y2="${y2}" stroke="#888"/>`;
}

function legend(x: number, y: number, color: string, label: string): string {
  return `${rect(x, y - 9, 10, 10, color)}${text(x + 14, y, label, 'start')}`;
}
