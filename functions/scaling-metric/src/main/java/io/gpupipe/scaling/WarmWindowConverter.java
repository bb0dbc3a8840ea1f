package io.gpupipe.scaling;

import io.gpupipe.model.scaling.WarmWindow;
import org.eclipse.microprofile.config.spi.Converter;

/** Reads {@code GPUPIPE_SCALING_<TIER>_WARM_WINDOW}, e.g. "MON-FRI 08:00-18:00 Europe/Berlin 1"; bad text fails. */
public class WarmWindowConverter implements Converter<WarmWindow> {
    @Override
    public WarmWindow convert(String value) {
        return WarmWindow.parse(value);
    }
}
