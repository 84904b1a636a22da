/*
 * Copyright 2026 the setnx-lock authors.
 *
 * Licensed under the Apache License, Version 2.0 (the "License");
 * you may not use this file except in compliance with the License.
 * You may obtain a copy of the License at
 *
 *      https://www.apache.org/licenses/LICENSE-2.0
 *
 * Unless required by applicable law or agreed to in writing, software
 * distributed under the License is distributed on an "AS IS" BASIS,
 * WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
 * See the License for the specific language governing permissions and
 * limitations under the License.
 */

package io.github.setnxlock.faults;

/**
 * One critical section of a history: who entered it, with which fencing token, when it
 * began and ended (microseconds of the wall clock, which all processes of one machine
 * share), whether the holder still held the lock by its own reckoning at both ends, and
 * what the protected store made of its read and write.
 *
 * @param process the process that ran it
 * @param thread the thread, within the process
 * @param key the lock key
 * @param token the fencing token of the hold
 * @param entered when the section began, after the lock was taken
 * @param exited when the section ended, before the lock was released
 * @param heldAtEntry whether the lock was held, by the holder's own deadline, just after
 * {@code entered} was taken
 * @param heldAtExit whether it was still held just after {@code exited} was taken
 * @param read the fenced counter the section read, or -1 when the store refused the read
 * for a stale token
 * @param written whether the store accepted the fenced write of {@code read + 1} (a
 * refused read or write means a stale token)
 * @param unlockFound what {@code unlock()} found: {@code ok}, {@code lost} (a
 * {@code LockLostException}) or {@code error} (Redis could not be reached)
 * @param acquired when the lock was taken, before the fencing token was asked for (which
 * may be a while later, as work under a lock may ask late)
 * @author setnx-lock authors
 */
record HistoryRecord(String process, int thread, String key, long token, long entered, long exited, boolean heldAtEntry,
		boolean heldAtExit, long read, boolean written, String unlockFound, long acquired) {

	/**
	 * A section whose token was asked for as soon as the lock was taken.
	 */
	HistoryRecord(String process, int thread, String key, long token, long entered, long exited, boolean heldAtEntry,
			boolean heldAtExit, long read, boolean written, String unlockFound) {
		this(process, thread, key, token, entered, exited, heldAtEntry, heldAtExit, read, written, unlockFound,
				entered);
	}

	/**
	 * Whether the holder believed it held the lock for the whole section: held at its end
	 * by a deadline that only moves forward means held all along.
	 * @return whether the section counts for mutual exclusion
	 */
	boolean believedHeld() {
		return this.heldAtEntry && this.heldAtExit;
	}

	String line() {
		return String.join(" ", this.process, Integer.toString(this.thread), this.key, Long.toString(this.token),
				Long.toString(this.entered), Long.toString(this.exited), Boolean.toString(this.heldAtEntry),
				Boolean.toString(this.heldAtExit), Long.toString(this.read), Boolean.toString(this.written),
				this.unlockFound, Long.toString(this.acquired));
	}

	static HistoryRecord parse(String line) {
		String[] fields = line.split(" ");
		if (fields.length != 12) {
			throw new IllegalArgumentException("Not a history record: '" + line + "'");
		}
		return new HistoryRecord(fields[0], Integer.parseInt(fields[1]), fields[2], Long.parseLong(fields[3]),
				Long.parseLong(fields[4]), Long.parseLong(fields[5]), Boolean.parseBoolean(fields[6]),
				Boolean.parseBoolean(fields[7]), Long.parseLong(fields[8]), Boolean.parseBoolean(fields[9]), fields[10],
				Long.parseLong(fields[11]));
	}

}
