// Modal dialogs, one way for all (buy-in, log in, register, create a table, ...): a
// <dialog> shown modal (the rest of the page inert), named by its heading, the focus moved
// into it and given back to where it was when it closes; Escape closes it (the browser's
// cancel), and so does any button of its form with method=dialog.

import { h } from './dom.js';

let serial = 0;

/**
 * Show a modal dialog with `children` (its first h2 names it). `focus`: the element to
 * focus first (else the first field or button); `onClose(returnValue)` when it closes;
 * `returnTo`: where the focus goes back to if the element focused before has gone.
 * Returns the dialog element.
 */
export function openModal({ cls = '', children, focus = null, onClose = () => {}, returnTo = null, describedBy = null }) {
  serial += 1;
  const dialog = h('dialog', { class: `dialog ${cls}`.trim(), 'aria-modal': 'true' }, children);
  const heading = dialog.querySelector('h1, h2');
  if (heading) {
    heading.id ||= `dialog-title-${serial}`;
    dialog.setAttribute('aria-labelledby', heading.id);
  }
  if (describedBy) dialog.setAttribute('aria-describedby', describedBy);
  const before = document.activeElement instanceof HTMLElement ? document.activeElement : null;
  dialog.addEventListener('close', () => {
    dialog.remove();
    onClose(dialog.returnValue);
    const back = before?.isConnected ? before : (typeof returnTo === 'function' ? returnTo() : returnTo);
    if (back && !document.querySelector('dialog[open]')) back.focus({ preventScroll: true });
  });
  document.body.append(dialog);
  dialog.showModal();
  const first = focus ?? dialog.querySelector('input:not([type=hidden]), select, textarea, button:not([disabled])');
  first?.focus();
  return dialog;
}

/** A fresh id for an element a dialog points at (aria-describedby). */
export function uniqueId(prefix) {
  serial += 1;
  return `${prefix}-${serial}`;
}
