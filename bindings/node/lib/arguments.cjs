'use strict';
// The checks of the JavaScript-side arguments (options, limits), with the
// TypeError or RangeError that says what was expected. The addon checks
// the arguments it converts (lines, chunks, roles, profiles) itself; a
// profile is also checked here where the addon would see it only later.

const native = require('./native.cjs');

// What a value is, for an error message.
function describe(value) {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}

function checkOptions(options) {
  if (options === undefined) return {};
  if (options === null || typeof options !== 'object') {
    throw new TypeError(`options must be an object, not ${describe(options)}`);
  }
  return options;
}

// A line limit: undefined or 0 for the library's default.
function checkMaxLine(maxLine) {
  if (maxLine === undefined) return 0;
  if (typeof maxLine !== 'number') {
    throw new TypeError(`maxLine must be a number of bytes, not ${describe(maxLine)}`);
  }
  if (!Number.isSafeInteger(maxLine) || maxLine < 0) {
    throw new RangeError(`maxLine must be a whole number of bytes, 0 or more (0: the library's default), not ${maxLine}`);
  }
  return maxLine;
}

// A profile option: undefined (the library's default, JSON-RPC) or one of
// the library's profile names (Profile), as the addon says it.
const PROFILES = Object.values(native.profiles);
const PROFILE_MESSAGE = `profile must be ${PROFILES.map((name) => `'${name}'`).join(' or ')}`;

function checkProfile(profile) {
  if (profile === undefined || PROFILES.includes(profile)) return profile;
  throw typeof profile === 'string' ? new RangeError(PROFILE_MESSAGE) : new TypeError(PROFILE_MESSAGE);
}

module.exports = { describe, checkOptions, checkMaxLine, checkProfile };
