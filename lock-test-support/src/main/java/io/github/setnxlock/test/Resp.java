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

package io.github.setnxlock.test;

import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * Sends one command over a fresh connection and reads its reply, in RESP2. The fixture
 * talks to Redis this way, not through the client library under test, so that setting up
 * a test never depends on the code it tests.
 *
 * @author setnx-lock authors
 */
final class Resp {

	private Resp() {
	}

	static Object execute(String host, int port, int timeoutMillis, String... command) {
		try (Socket socket = new Socket()) {
			socket.connect(new InetSocketAddress(host, port), timeoutMillis);
			socket.setSoTimeout(timeoutMillis);
			OutputStream out = socket.getOutputStream();
			out.write(encode(command));
			out.flush();
			return read(new BufferedInputStream(socket.getInputStream()));
		}
		catch (IOException ex) {
			throw new UncheckedIOException("Redis at " + host + ":" + port + " did not answer " + command[0], ex);
		}
	}

	private static byte[] encode(String... command) {
		ByteArrayOutputStream bytes = new ByteArrayOutputStream();
		bytes.writeBytes(("*" + command.length + "\r\n").getBytes(StandardCharsets.US_ASCII));
		for (String part : command) {
			byte[] data = part.getBytes(StandardCharsets.UTF_8);
			bytes.writeBytes(("$" + data.length + "\r\n").getBytes(StandardCharsets.US_ASCII));
			bytes.writeBytes(data);
			bytes.writeBytes("\r\n".getBytes(StandardCharsets.US_ASCII));
		}
		return bytes.toByteArray();
	}

	private static Object read(InputStream in) throws IOException {
		int type = in.read();
		String line = readLine(in);
		switch (type) {
			case '+':
				return line;
			case '-':
				throw new RedisReplyException(line);
			case ':':
				return Long.parseLong(line);
			case '$': {
				int length = Integer.parseInt(line);
				if (length < 0) {
					return null;
				}
				byte[] data = in.readNBytes(length);
				readLine(in);
				return new String(data, StandardCharsets.UTF_8);
			}
			case '*': {
				int count = Integer.parseInt(line);
				if (count < 0) {
					return null;
				}
				List<Object> items = new ArrayList<>(count);
				for (int i = 0; i < count; i++) {
					items.add(read(in));
				}
				return items;
			}
			default:
				throw new IOException("Not a RESP reply: type byte " + type + ", line '" + line + "'");
		}
	}

	private static String readLine(InputStream in) throws IOException {
		ByteArrayOutputStream line = new ByteArrayOutputStream();
		int previous = -1;
		for (int next = in.read(); next != -1; next = in.read()) {
			if (previous == '\r' && next == '\n') {
				byte[] bytes = line.toByteArray();
				return new String(bytes, 0, bytes.length - 1, StandardCharsets.UTF_8);
			}
			line.write(next);
			previous = next;
		}
		throw new IOException("Connection closed in the middle of a reply");
	}

}
