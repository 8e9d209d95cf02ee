/**
 * Where sign-in sends a person afterwards (`?next=`, app/developers/_lib/next.ts): anyone can write it
 * into a link, so only a path of this portal is followed: never another site (no open redirect).
 */
import { expect, test } from 'vitest';
import { afterSignIn, portalPath, signInHref } from '../../app/developers/_lib/next';

test('portal pages, with their query, are followed', () => {
  for (const path of [
    '/developers/keys',
    '/developers/team?from=link',
    '/developers/connect?client_id=a&redirect_uri=https%3A%2F%2Fx.example%2Fcb',
  ])
    expect(afterSignIn(path)).toBe(path);
});

test('anything else goes to the portal’s first page: other sites, scheme-relative and backslash tricks, other paths, sign-in itself', () => {
  const hostile = [
    'https://evil.example/developers/keys',
    '//evil.example/developers/keys',
    '/\\evil.example/developers/keys',
    '/developers/\\evil.example',
    '\\\\evil.example',
    'javascript:alert(1)',
    '/developers',
    '/v3/api/me',
    ' /developers/keys',
    '/developers/keys\n',
    '/developers/sign-in',
    '/developers/sign-in?next=%2F%2Fevil.example',
    `/developers/${'a'.repeat(2000)}`,
    undefined,
    ['/developers/keys', '/developers/team'],
  ];
  for (const value of hostile) {
    expect(portalPath(value), String(value)).toBeUndefined();
    expect(afterSignIn(value)).toBe('/developers');
  }
});

test('the sign-in address carries the page back, and says when a session ended', () => {
  expect(signInHref('/developers/activity')).toBe('/developers/sign-in?next=%2Fdevelopers%2Factivity');
  expect(signInHref('/developers/activity?kind=team', true)).toBe(
    '/developers/sign-in?next=%2Fdevelopers%2Factivity%3Fkind%3Dteam&ended=1',
  );
  expect(signInHref('//evil.example/')).toBe('/developers/sign-in');
  expect(signInHref('/developers')).toBe('/developers/sign-in');
});
