import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { it } from 'node:test';
import { GENERATED_FILE, renderCallRoutes } from '../scripts/generate-api';

it('the web app call table is generated from the current contracts', () => {
  assert.equal(readFileSync(GENERATED_FILE, 'utf8'), renderCallRoutes(), 'run `npm run generate -w web`');
});
