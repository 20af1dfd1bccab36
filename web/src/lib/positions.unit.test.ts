import { describe, expect, it } from 'vitest';
import { notePositions, POSITIONS_HEADER, positionHeaders } from './positions';

const answer = (header?: string) => new Response(null, { headers: header ? { [POSITIONS_HEADER]: header } : {} });
const sent = () => positionHeaders()[POSITIONS_HEADER]?.split(',').sort();

describe('the positions a tab sends', () => {
  it('keep the newest of each source, whichever answer arrives last', () => {
    notePositions(answer());
    expect(sent()).toBeUndefined();
    // Two writes to one service in flight, answered out of order: the later write's position stays.
    notePositions(answer('projects=120/118.newer'));
    notePositions(answer('projects=119/119.older'));
    expect(sent()).toEqual(['projects=120/118.newer']);
    notePositions(answer('projects=120/119.prepared-later,reminders=9/9.rem'));
    expect(sent()).toEqual(['projects=120/119.prepared-later', 'reminders=9/9.rem']);
    // What is not a signed position is not kept.
    notePositions(answer('projects=999/999,billing=,=1/1.x,chat=1/1.a=b'));
    expect(sent()).toEqual(['projects=120/119.prepared-later', 'reminders=9/9.rem']);
  });
});
