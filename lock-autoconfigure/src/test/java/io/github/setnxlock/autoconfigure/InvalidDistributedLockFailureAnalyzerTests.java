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

package io.github.setnxlock.autoconfigure;

import io.github.setnxlock.annotation.DistributedLock;
import io.github.setnxlock.test.RedisServerExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.parallel.ResourceLock;
import org.junit.jupiter.api.parallel.Resources;

import org.springframework.boot.Banner;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatException;

/**
 * A {@link DistributedLock} that cannot work as written stops start-up with Spring Boot's
 * failure report: the method, the problem and what to change, as the report's description
 * and action.
 *
 * @author setnx-lock authors
 */
@ExtendWith(OutputCaptureExtension.class)
@ResourceLock(Resources.SYSTEM_OUT)
@ResourceLock(Resources.SYSTEM_ERR)
class InvalidDistributedLockFailureAnalyzerTests {

	@RegisterExtension
	static final RedisServerExtension redis = new RedisServerExtension();

	@Test
	void aKeyNamingAParameterTheMethodLacksIsReportedWithWhatToChange(CapturedOutput output) {
		assertThatException().isThrownBy(() -> run(UnknownParameterApplication.class));
		assertThat(output).contains("APPLICATION FAILED TO START")
			.contains("Description:\n\n@DistributedLock on " + Orders.class.getName()
					+ ".place(String) cannot work as written: key '#orderId' refers to #orderId,"
					+ " which the method does not have; the variables are #id")
			.contains("Action:\n\nChange the key to use the variables listed above.");
	}

	@Test
	void aPrivateMethodIsReportedWithWhatToChange(CapturedOutput output) {
		assertThatException().isThrownBy(() -> run(PrivateMethodApplication.class));
		assertThat(output).contains("APPLICATION FAILED TO START")
			.contains("Description:\n\n@DistributedLock on " + Hidden.class.getName()
					+ ".run() cannot work as written: the method is private")
			.contains("Action:\n\nMake run neither private, static nor final");
	}

	private static void run(Class<?> application) {
		SpringApplication spring = new SpringApplication(application);
		spring.setWebApplicationType(WebApplicationType.NONE);
		spring.setBannerMode(Banner.Mode.OFF);
		spring.setLogStartupInfo(false);
		spring.run("--spring.data.redis.host=" + redis.server().host(),
				"--spring.data.redis.port=" + redis.server().port());
	}

	@Configuration(proxyBeanMethods = false)
	@ImportAutoConfiguration({ DataRedisAutoConfiguration.class, SetnxLockAutoConfiguration.class,
			DistributedLockAutoConfiguration.class })
	static class UnknownParameterApplication {

		@Bean
		Orders orders() {
			return new Orders();
		}

	}

	@Configuration(proxyBeanMethods = false)
	@ImportAutoConfiguration({ DataRedisAutoConfiguration.class, SetnxLockAutoConfiguration.class,
			DistributedLockAutoConfiguration.class })
	static class PrivateMethodApplication {

		@Bean
		Hidden hidden() {
			return new Hidden();
		}

	}

	static class Orders {

		@DistributedLock(key = "#orderId")
		public void place(String id) {
		}

	}

	static class Hidden {

		@DistributedLock
		private void run() {
		}

	}

}
