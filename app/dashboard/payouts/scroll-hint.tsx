/** Under a wide table on a phone: the table scrolls sideways, and says so (hidden where every column fits). */
export function ScrollHint({ id }: { id: string }) {
  return (
    <p id={id} className="text-xs text-slate-500 md:hidden" data-testid="scroll-hint">
      Swipe the table sideways to see every column →
    </p>
  );
}
