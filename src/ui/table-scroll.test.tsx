// The wide tables' scrolling box: the sideways-scroll hint shows on the side that has more columns,
// follows the scroll and the box's size, and the box is a focusable named region only while it scrolls.
import { ChakraProvider, Table } from '@chakra-ui/react';
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { scrollEdges, TableScroll } from './table-scroll';
import { system } from './theme';

let resized: (() => void)[] = [];

beforeEach(() => {
  resized = [];
  vi.stubGlobal(
    'ResizeObserver',
    class {
      constructor(callback: () => void) {
        resized.push(callback);
      }
      observe() {}
      unobserve() {}
      disconnect() {}
    },
  );
});

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

/** jsdom lays nothing out: the box's sizes and scroll position are set by hand. */
function setBox(box: HTMLElement, size: { scrollWidth: number; clientWidth: number; scrollLeft?: number }) {
  Object.defineProperty(box, 'scrollWidth', { configurable: true, value: size.scrollWidth });
  Object.defineProperty(box, 'clientWidth', { configurable: true, value: size.clientWidth });
  box.scrollLeft = size.scrollLeft ?? 0;
}

function renderTable() {
  render(
    <ChakraProvider value={system}>
      <TableScroll label="Products" borderWidth="1px">
        <Table.Root aria-label="Products">
          <Table.Body>
            <Table.Row>
              <Table.Cell>Cotton tee</Table.Cell>
            </Table.Row>
          </Table.Body>
        </Table.Root>
      </TableScroll>
    </ChakraProvider>,
  );
  const box = screen.getByRole('table', { name: 'Products' }).parentElement as HTMLElement;
  const hint = (side: 'start' | 'end') =>
    document.querySelector(`[data-scroll-hint="${side}"]`) as HTMLElement;
  const shown = () => ({
    start: hint('start').hasAttribute('data-shown'),
    end: hint('end').hasAttribute('data-shown'),
  });
  const resize = () =>
    act(() => {
      for (const callback of resized) callback();
    });
  return { box, hint, shown, resize };
}

describe('TableScroll', () => {
  it('shows no hint, and is no tab stop, when the table fits', () => {
    const { box, shown, resize } = renderTable();
    setBox(box, { scrollWidth: 800, clientWidth: 800 });
    resize();
    expect(shown()).toEqual({ start: false, end: false });
    expect(screen.queryByRole('region')).not.toBeInTheDocument();
    expect(box).not.toHaveAttribute('tabindex');
  });

  it('hints at the hidden columns on the side that has them, and follows the scroll', () => {
    const { box, hint, shown, resize } = renderTable();
    setBox(box, { scrollWidth: 1400, clientWidth: 1000 });
    resize();
    expect(shown()).toEqual({ start: false, end: true });
    // Decoration only; the region's name says it scrolls, and the keyboard can scroll it.
    expect(hint('end')).toHaveAttribute('aria-hidden', 'true');
    const region = screen.getByRole('region', { name: 'Products (scrolls sideways)' });
    expect(region).toBe(box);
    expect(region).toHaveAttribute('tabindex', '0');

    box.scrollLeft = 200;
    fireEvent.scroll(box);
    expect(shown()).toEqual({ start: true, end: true });

    box.scrollLeft = 400;
    fireEvent.scroll(box);
    expect(shown()).toEqual({ start: true, end: false });
  });

  it('drops the hint when the box grows to fit the table', () => {
    const { box, shown, resize } = renderTable();
    setBox(box, { scrollWidth: 1400, clientWidth: 1000 });
    resize();
    expect(shown().end).toBe(true);
    setBox(box, { scrollWidth: 1400, clientWidth: 1400 });
    resize();
    expect(shown()).toEqual({ start: false, end: false });
    expect(screen.queryByRole('region')).not.toBeInTheDocument();
  });
});

describe('scrollEdges', () => {
  it('ignores a pixel of rounding at either end', () => {
    expect(scrollEdges({ scrollWidth: 1001, clientWidth: 1000, scrollLeft: 0 })).toEqual({
      start: false,
      end: false,
    });
    expect(scrollEdges({ scrollWidth: 1500, clientWidth: 1000, scrollLeft: 499.5 })).toEqual({
      start: true,
      end: false,
    });
    // Right-to-left pages count scrollLeft down from 0.
    expect(scrollEdges({ scrollWidth: 1500, clientWidth: 1000, scrollLeft: -250 })).toEqual({
      start: true,
      end: true,
    });
  });
});
