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

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Give a Spring test's application context a Redis server of its own, without Docker: put
 * it on a {@code @SpringBootTest} class (or any class the Spring TestContext Framework
 * runs) and the context connects to a {@code redis-server} started for it.
 * <pre class="code">
 * &#64;SpringBootTest
 * &#64;EmbeddedRedisServer
 * class OrderServiceTests {
 *
 *     &#64;Autowired
 *     LockRegistry locks;
 *
 * }
 * </pre>
 * <p>
 * Before the context starts, a server is started on a free loopback port (see
 * {@link RedisServer#start(String...)}: the machine's {@code redis-server}, or the binary
 * bundled with this artifact where there is none), and the properties
 * {@code spring.data.redis.host} and {@code spring.data.redis.port} point at it, ahead of
 * every other property source. Leave {@code spring.data.redis.url} unset: Spring Boot
 * prefers it to host and port. The server is a bean of type {@link RedisServer}, which a
 * test can inject to look at Redis or empty it ({@code FLUSHALL}), and it stops when the
 * context is closed. Test classes whose configuration is otherwise the same share one
 * cached context, and so one server; the server keeps nothing on disk.
 * <p>
 * It works through a {@code ContextCustomizerFactory} that {@code spring-test} finds in
 * this artifact's {@code META-INF/spring.factories}, so it needs {@code spring-test} on
 * the test classpath (as {@code spring-boot-starter-test} brings it) and nothing else.
 *
 * @author setnx-lock authors
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Inherited
public @interface EmbeddedRedisServer {

}
