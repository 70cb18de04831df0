import { performance } from 'node:perf_hooks';
import { renderDocumentPdf } from '../src/documents/pdf/document-pdf.renderer';
import { DocumentView, Issuer } from '../src/documents/pdf/document-view';

/*
 * Time to render an invoice PDF of 1 line and of 200 lines: the median of RUNS renders after
 * WARM_UP ones, each size stopping early once it has taken MAX_SECONDS.
 *   npm run bench:pdf
 */

const RUNS = 30;
const WARM_UP = 3;
const MAX_SECONDS = 30;
const SIZES = [1, 200];

const ISSUER: Issuer = {
  name: 'Northwind Trading Ltd',
  address: '4 Harbour Road, Bristol',
  email: 'accounts@northwind.example',
  taxId: 'GB987654321',
};

function invoice(lineCount: number): DocumentView {
  return {
    kind: 'invoice',
    number: 'INV-2026-0001',
    description: 'Consulting services, March',
    issueDate: '2026-03-01',
    dueDate: '2026-03-31',
    currency: 'EUR',
    customer: {
      name: 'Αλέξανδρος Παπαδόπουλος',
      phone: '+30 210 123 4567',
      address: 'Οδός Ερμού 15, Αθήνα',
    },
    lines: Array.from({ length: lineCount }, (_, index) => ({
      description: `Line ${index + 1}: on-site support and configuration of the equipment`,
      quantity: '2',
      rate: '45.50',
      amount: '91.00',
    })),
    subTotal: (91 * lineCount).toFixed(2),
    taxRate: '8.25',
    taxAmount: (91 * lineCount * 0.0825).toFixed(2),
    total: (91 * lineCount * 1.0825).toFixed(2),
    amountPaid: '0.00',
    balanceDue: (91 * lineCount * 1.0825).toFixed(2),
    note: 'Payable by bank transfer within 30 days.',
  };
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

async function measure(lineCount: number): Promise<void> {
  const view = invoice(lineCount);
  let bytes: Buffer = Buffer.alloc(0);
  for (let run = 0; run < WARM_UP; run += 1) bytes = await renderDocumentPdf(view, ISSUER);
  const times: number[] = [];
  const deadline = performance.now() + MAX_SECONDS * 1000;
  while (times.length < RUNS && performance.now() < deadline) {
    const start = performance.now();
    bytes = await renderDocumentPdf(view, ISSUER);
    times.push(performance.now() - start);
  }
  const pages = bytes.toString('latin1').match(/\/Type \/Page\b(?!s)/g)?.length ?? 0;
  const label = `${lineCount} line${lineCount === 1 ? '' : 's'}`.padEnd(9);
  console.log(
    `${label} median ${median(times).toFixed(1)} ms  (min ${Math.min(...times).toFixed(1)}, ` +
      `max ${Math.max(...times).toFixed(1)}; ${times.length} runs)  ` +
      `${pages} page${pages === 1 ? '' : 's'}, ${(bytes.length / 1024).toFixed(0)} KiB`,
  );
}

async function main(): Promise<void> {
  console.log(`PDF render, Node ${process.version}, ${RUNS} runs after ${WARM_UP} warm-up`);
  for (const size of SIZES) await measure(size);
}

void main();
